//! Hash helpers: md5 for document keys and entity ids (SPEC §1, §2), HMAC-SHA256 for
//! export ids and pseudonyms keyed by the project key (SPEC §5).

use hmac::{Hmac, KeyInit, Mac};
use md5::{Digest, Md5};
use sha2::Sha256;

/// Lowercase hex md5 of `data`.
pub fn md5_hex(data: &str) -> String {
    hex::encode(Md5::digest(data.as_bytes()))
}

/// The first 8 bytes of md5(`data`) as a big-endian integer: a hash of a short string
/// that every version and platform computes alike (shards of a corpus, by document id).
pub fn md5_u64(data: &str) -> u64 {
    let digest = Md5::digest(data.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// Lowercase hex HMAC-SHA256 of `data` under `key`.
pub fn hmac_hex(key: &[u8], data: &str) -> String {
    // HMAC accepts keys of any length, so `new_from_slice` cannot fail here.
    let mut mac = match <Hmac<Sha256> as KeyInit>::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC takes keys of any length"),
    };
    mac.update(data.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_matches_known_vector() {
        assert_eq!(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
        // entity id of the test vectors' "boston::LOCATION"
        assert_eq!(
            md5_hex("boston::LOCATION"),
            "451e43fc35a0a740f97f096bea80ce04"
        );
        assert_eq!(md5_u64(""), 0xd41d_8cd9_8f00_b204);
    }

    #[test]
    fn hmac_matches_rfc4231_case_2() {
        assert_eq!(
            hmac_hex(b"Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
