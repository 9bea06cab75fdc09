//! Writes the TypeScript bindings of the protocol into `web/src/generated/`:
//! `cargo run -p bughouse-protocol --example gen-ts`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(bughouse_protocol::typescript::DIR);
    std::fs::create_dir_all(&dir)?;
    for b in bughouse_protocol::typescript::bindings() {
        let path = dir.join(b.file);
        std::fs::write(&path, b.text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
