//! A tournament kept in a JSON file: read, and written through a temporary file renamed over
//! it (a crash never leaves half a file).

use std::path::{Path, PathBuf};

use crate::{Tournament, TournamentError};

/// Why a tournament file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a tournament.
    #[error("{}: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        source: TournamentError,
    },
    /// The file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl Tournament {
    /// Reads a tournament file.
    ///
    /// # Errors
    ///
    /// [`FileError`]: the file cannot be read or is not a tournament.
    pub fn load(file: &Path) -> Result<Tournament, FileError> {
        let text = std::fs::read_to_string(file).map_err(|source| FileError::Read {
            path: file.to_path_buf(),
            source,
        })?;
        Tournament::from_json(&text).map_err(|source| FileError::Parse {
            path: file.to_path_buf(),
            source,
        })
    }

    /// Writes the tournament to `file` through `FILE.tmp`, renamed over it.
    ///
    /// # Errors
    ///
    /// [`FileError::Write`]; the temporary file is removed then.
    pub fn save(&self, file: &Path) -> Result<(), FileError> {
        let mut tmp = file.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_json())
            .and_then(|()| std::fs::rename(&tmp, file))
            .map_err(|source| {
                let _ = std::fs::remove_file(&tmp);
                FileError::Write {
                    path: file.to_path_buf(),
                    source,
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use bughouse_core::Preset;

    use super::*;
    use crate::Format;

    #[test]
    fn a_saved_tournament_loads_back_and_errors_name_the_file() {
        let dir =
            std::env::temp_dir().join(format!("bughouse-tournament-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        let file = dir.join("t.json");
        let t = Tournament::new("Cup", Preset::Fide, Format::RoundRobin, None, 1)
            .expect("a tournament");
        t.save(&file).expect("written");
        assert!(!dir.join("t.json.tmp").exists());
        assert_eq!(
            Tournament::load(&file).expect("read").to_json(),
            t.to_json()
        );
        let missing = dir.join("missing.json");
        assert!(Tournament::load(&missing)
            .expect_err("no file")
            .to_string()
            .starts_with(&format!("cannot read {}: ", missing.display())));
        std::fs::write(&file, "{}").expect("written");
        assert!(Tournament::load(&file)
            .expect_err("not a tournament")
            .to_string()
            .starts_with(&format!("{}: ", file.display())));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
