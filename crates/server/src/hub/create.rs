//! Creating matches: a preset or a custom rule set, a time control, an id.

use super::*;

impl Hub {
    pub(super) fn random_id(&mut self, bytes: usize) -> String {
        let mut buf = vec![0u8; bytes];
        self.rng.fill_bytes(&mut buf);
        const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        buf.iter()
            .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
            .collect()
    }

    /// Creates a match. Returns its id and the effects (its storage).
    ///
    /// # Errors
    ///
    /// An unknown preset or unreadable time control.
    pub fn create_match(
        &mut self,
        preset: &str,
        time_control: &str,
        now: Duration,
    ) -> Result<(String, Vec<Effect>), CreateError> {
        self.now = now;
        self.create_custom(preset, &BTreeMap::new(), time_control, now)
    }

    /// Creates a match with a preset's rules changed in the `custom` fields (names and values
    /// as [`Rules::set`] takes them). A set equal to some preset carries that preset's id,
    /// any other is `custom`.
    ///
    /// # Errors
    ///
    /// An unknown preset, field or value, or an unreadable time control.
    pub fn create_custom(
        &mut self,
        preset: &str,
        custom: &BTreeMap<String, String>,
        time_control: &str,
        now: Duration,
    ) -> Result<(String, Vec<Effect>), CreateError> {
        self.now = now;
        let preset: Preset = preset.parse()?;
        let mut rules = preset.rules();
        for (field, value) in custom {
            rules.set(field, value)?;
        }
        let tc: TimeControl = time_control.parse()?;
        Ok(self.create_with(rules, tc, None, (false, false)))
    }

    /// Creates a match as `POST /api/matches` asks: a preset or custom rule set, a time
    /// control, rated or casual (and whether bots may sit in a rated match).
    ///
    /// # Errors
    ///
    /// An unknown preset, field or value, or an unreadable time control.
    pub fn create_from(
        &mut self,
        request: &CreateMatch,
        now: Duration,
    ) -> Result<(String, Vec<Effect>), CreateError> {
        self.now = now;
        let preset: Preset = request.rules.parse()?;
        let mut rules = preset.rules();
        for (field, value) in &request.custom {
            rules.set(field, value)?;
        }
        let tc: TimeControl = request.time_control.parse()?;
        let rated = (request.rated, request.rated && request.allow_bots);
        Ok(self.create_with(rules, tc, None, rated))
    }

    /// `rated`: whether the match is rated, and whether bots may sit in it.
    pub(super) fn create_with(
        &mut self,
        rules: Rules,
        tc: TimeControl,
        rematch_of: Option<String>,
        (rated, allow_bots): (bool, bool),
    ) -> (String, Vec<Effect>) {
        let id = loop {
            let id = self.random_id(10);
            let (index, count) = self.shard;
            if !self.matches.contains_key(&id) && shard_of(&id, count) == index {
                break id;
            }
        };
        let label = rules_label(&rules);
        self.matches.insert(
            id.clone(),
            LiveMatch {
                id: id.clone(),
                preset: label.clone(),
                game: Match::new(rules, tc),
                seats: [None, None, None, None],
                watchers: Vec::new(),
                seen: [None, None],
                epoch: self.now,
                ahead: Duration::ZERO,
                last_moves: [None, None],
                finished: false,
                rematch: [None, None],
                events: 0,
                bots: Default::default(),
                seq: 0,
                talk: Vec::new(),
                recent: Default::default(),
                lag: [LagSeat {
                    estimate: None,
                    quota: lag_quota(tc).1,
                }; 4],
                stored_result: None,
                end_time: None,
                move_lag: Vec::new(),
                flags_stored: Vec::new(),
                rated,
                allow_bots,
                rating_changes: None,
            },
        );
        let effects = vec![Effect::Store(Write::CreateMatch(
            bughouse_store::NewMatch {
                id: id.clone(),
                rules_preset: label,
                rules_json: serde_json::to_string(&rules).unwrap_or_else(|_| "null".into()),
                base_ms: i(ms(tc.base)),
                increment_ms: i(ms(tc.increment)),
                created_at_ms: self.unix_ms(self.now),
                rematch_of,
                rated,
                allow_bots,
            },
        ))];
        self.lobby_changed();
        (id, effects)
    }
}
