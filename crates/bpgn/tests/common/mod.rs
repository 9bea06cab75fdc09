//! What the tests of this crate share: the real archives of `../shared/data`.

/// The bytes of `../shared/data/NAME`.
pub fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
