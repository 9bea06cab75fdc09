//! A pairing played over the board (issue 16): what its table is opened with, and its result
//! entered when the table's match is over, as a server match's is, and its scoresheet's BPGN
//! given with the server matches' (`matches.bpgn`).

use bughouse_core::{Preset, TimeControl};

use super::{Error, Service};

/// What the over-the-board table of a pairing is opened with.
pub(crate) struct OtbPairing {
    /// The tournament's rulebook.
    pub(crate) preset: Preset,
    /// Its time control.
    pub(crate) time_control: TimeControl,
    /// The organiser's secret hash: the seed of the table's key, so the organiser can be given
    /// it again without the server keeping it.
    pub(crate) organiser_hash: String,
}

impl Service {
    /// Checks the organiser's secret and that the pairing exists and is not a bye.
    pub(crate) async fn otb_pairing(
        &self,
        (id, round, table): (&str, u32, u32),
        secret: Option<&str>,
    ) -> Result<OtbPairing, Error> {
        let registry = self.read(id).await?;
        let entry = registry.entry(id)?;
        entry.authorize(secret)?;
        entry
            .tournament
            .round(round)
            .and_then(|r| r.table(table))
            .ok_or_else(|| Error::Missing(format!("no table {table} in round {round}")))?;
        Ok(OtbPairing {
            preset: entry.tournament.preset(),
            time_control: entry.time_control,
            organiser_hash: entry.organiser_hash.clone(),
        })
    }

    /// The match of the over-the-board table `table_id` playing the pairing is over: enters
    /// both games' results (`1-0`, `0-1`, `1/2-1/2`, `*`), unless the pairing has one.
    pub(crate) async fn otb_finished(
        &self,
        (tid, round, table): (&str, u32, u32),
        boards: [String; 2],
        table_id: &str,
    ) {
        self.enter_games((tid.to_owned(), round, table), &boards, table_id)
            .await;
    }

    /// The BPGN of the pairings played over the board, of one round or all, by round and
    /// table: each table whose scoresheet has moves, as its `GET /api/otb/{id}/bpgn` gives it.
    pub(crate) async fn otb_bpgn(
        &self,
        id: &str,
        round: Option<u32>,
    ) -> Result<Vec<String>, Error> {
        let tables = self.store.otb_tables_of_tournament(id).await?;
        let mut out = Vec::new();
        for t in tables {
            let in_round = t
                .table
                .pairing
                .as_ref()
                .is_some_and(|(_, r, _)| round.is_none_or(|n| i64::from(n) == *r));
            if !in_round {
                continue;
            }
            let Some(stored) = self.store.load_otb_table(&t.table.id).await? else {
                continue;
            };
            // An unreadable table was logged by its replay; the others are still given.
            if let Ok(Some(text)) = crate::otb::stored_bpgn(&stored) {
                out.push(text);
            }
        }
        Ok(out)
    }
}
