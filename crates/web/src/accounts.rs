//! Accounts and sessions (`docs/web.md`, "Accounts"): a name and a password hashed with
//! argon2id (RFC 9106; the `argon2` crate's defaults, OWASP's minimum: 19 MiB, 2 passes,
//! one lane), a random session token in an HttpOnly, SameSite=Strict cookie, kept in the
//! database only as its BLAKE2b hash (a stolen database opens no session).

use std::cell::RefCell;

use argon2::password_hash::{self, Output, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rusqlite::{OptionalExtension, params};

use crate::store::{Store, StoreError, now_unix};
use crate::verify::blake2b_hex;

/// The session cookie's name.
pub const COOKIE: &str = "byog_session";

/// How long a session lasts: 30 days, in seconds.
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;

/// Name length, in characters.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 2..=24;

/// Password length, in characters.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;

/// Checks a name: 2 to 24 letters, digits, `-` or `_` (ASCII), so a name is safe in a URL,
/// a board and a log line.
///
/// # Errors
/// A message saying what is wrong.
pub fn check_name(name: &str) -> Result<(), String> {
    let len = name.chars().count();
    if !NAME_LEN.contains(&len) {
        return Err(format!(
            "a name has {} to {} characters (this one has {len})",
            NAME_LEN.start(),
            NAME_LEN.end()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(format!(
            "a name holds only letters, digits, '-' and '_' (not '{}')",
            c.escape_debug()
        ));
    }
    Ok(())
}

/// Checks a password's length.
///
/// # Errors
/// A message saying what is wrong.
pub fn check_password(password: &str) -> Result<(), String> {
    let len = password.chars().count();
    if PASSWORD_LEN.contains(&len) {
        Ok(())
    } else {
        Err(format!(
            "a password has {} to {} characters",
            PASSWORD_LEN.start(),
            PASSWORD_LEN.end()
        ))
    }
}

/// `n` random bytes from the operating system, as hex.
pub fn random_hex(n: usize) -> String {
    let mut buf = vec![0u8; n];
    // The operating system's generator does not fail on Linux once booted; if it ever did,
    // a token of zeros would be guessable, so stop rather than go on.
    getrandom::fill(&mut buf).expect("the operating system's random generator");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random u64 from the operating system.
pub fn random_u64() -> u64 {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).expect("the operating system's random generator");
    u64::from_le_bytes(buf)
}

thread_local! {
    /// argon2's working memory (19 MiB with the default parameters), kept for this thread's
    /// next hash. Allocated anew for each hash (as `Argon2::hash_password` does), glibc's
    /// allocator kept every one: a thread's resident set grew by 19 MiB a hash (measured:
    /// 100 MB after 6 hashes on one thread), hence the server's gigabytes after a burst of
    /// sign-ups. Reused, a thread holds one. The server hashes on its own few threads
    /// ([`crate::limits::Hasher`]).
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// The PHC string of `password` hashed by `argon2` with `salt`, on this thread's kept
/// memory ([`BLOCKS`]): what `PasswordHasher::hash_password` makes.
fn hash_with<'a>(
    argon2: &Argon2<'_>,
    algorithm: Algorithm,
    version: Version,
    password: &[u8],
    salt: Salt<'a>,
) -> password_hash::Result<PasswordHash<'a>> {
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt.decode_b64(&mut salt_bytes)?;
    let params = argon2.params();
    let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let output = Output::init_with(len, |out| {
        BLOCKS.with_borrow_mut(|blocks| {
            blocks.resize(params.block_count(), Block::default());
            argon2
                .hash_password_into_with_memory(password, salt_bytes, out, &mut blocks[..])
                .map_err(Into::into)
        })
    })?;
    Ok(PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: params.try_into()?,
        salt: Some(salt),
        hash: Some(output),
    })
}

/// The argon2id hash of `password` (PHC string, salt included), with the `argon2` crate's
/// default parameters (argon2id, version 0x13, 19 MiB, 2 passes, one lane).
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the operating system's random generator");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
    let (algorithm, version) = (Algorithm::Argon2id, Version::V0x13);
    let argon2 = Argon2::new(algorithm, version, Params::default());
    hash_with(
        &argon2,
        algorithm,
        version,
        password.as_bytes(),
        salt.as_salt(),
    )
    .map(|h| h.to_string())
    .unwrap_or_default()
}

/// Whether `password` matches the PHC string `hash` (its own algorithm, version and
/// parameters; the outputs compared in constant time, as `PasswordVerifier` does).
pub fn password_matches(password: &str, hash: &str) -> bool {
    let Ok(h) = PasswordHash::new(hash) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (h.salt, h.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(h.algorithm) else {
        return false;
    };
    let Ok(version) = h.version.map_or(Ok(Version::default()), Version::try_from) else {
        return false;
    };
    let Ok(params) = Params::try_from(&h) else {
        return false;
    };
    let argon2 = Argon2::new(algorithm, version, params);
    hash_with(&argon2, algorithm, version, password.as_bytes(), salt)
        .is_ok_and(|computed| computed.hash.is_some_and(|c| c == expected))
}

/// A hash that no password matches, checked against when the name is unknown, so that a
/// wrong name takes as long as a wrong password.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password(&random_hex(16)))
}

/// A signed-in account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
}

/// Makes an account.
///
/// # Errors
/// A duplicate name is a UNIQUE error ([`StoreError::is_duplicate`]).
pub async fn create(store: &Store, name: String, hash: String) -> Result<i64, StoreError> {
    store
        .write(move |c| {
            c.execute(
                "INSERT INTO accounts(name, hash, created) VALUES (?1, ?2, ?3)",
                params![name, hash, now_unix()],
            )?;
            Ok(c.last_insert_rowid())
        })
        .await
}

/// The account named `name` (any case) and its password hash.
///
/// # Errors
/// [`StoreError`] when the database cannot be read.
pub fn find(store: &Store, name: &str) -> Result<Option<(Account, String)>, StoreError> {
    store.read(|c| {
        Ok(c.query_row(
            "SELECT id, name, hash FROM accounts WHERE name = ?1",
            [name],
            |r| {
                Ok((
                    Account {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    },
                    r.get(2)?,
                ))
            },
        )
        .optional()?)
    })
}

/// Opens a session for `account`; returns its token (the cookie's value).
///
/// # Errors
/// [`StoreError`] when the session cannot be written (the store's writer failed or stopped).
pub async fn open_session(store: &Store, account: i64) -> Result<String, StoreError> {
    let token = random_hex(32);
    let digest = blake2b_hex(token.as_bytes());
    store
        .write(move |c| {
            let now = now_unix();
            c.execute("DELETE FROM sessions WHERE expires < ?1", [now])?;
            c.execute(
                "INSERT INTO sessions(token_hash, account, expires) VALUES (?1, ?2, ?3)",
                params![digest, account, now + SESSION_SECONDS],
            )?;
            Ok(0)
        })
        .await?;
    Ok(token)
}

/// Ends the session of `token`.
///
/// # Errors
/// [`StoreError`] when the session cannot be removed (the store's writer failed or stopped).
pub async fn close_session(store: &Store, token: &str) -> Result<(), StoreError> {
    let digest = blake2b_hex(token.as_bytes());
    store
        .write(move |c| {
            c.execute("DELETE FROM sessions WHERE token_hash = ?1", [digest])?;
            Ok(0)
        })
        .await
        .map(|_| ())
}

/// The account of session `token`, if it is open.
///
/// # Errors
/// [`StoreError`] when the database cannot be read.
pub fn session(store: &Store, token: &str) -> Result<Option<Account>, StoreError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let digest = blake2b_hex(token.as_bytes());
    store.read(|c| {
        Ok(c.query_row(
            "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account
             WHERE s.token_hash = ?1 AND s.expires >= ?2",
            params![digest, now_unix()],
            |r| {
                Ok(Account {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            },
        )
        .optional()?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_words() {
        assert!(check_name("ada_99").is_ok());
        assert!(check_name("a").is_err());
        assert!(check_name("x'; DROP TABLE accounts; --").is_err());
        assert!(check_name("名前").is_err());
        assert!(check_name(&"a".repeat(25)).is_err());
    }

    #[test]
    fn hashes_are_the_argon2_crates_own_both_ways() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        // Ours verify with the crate's verifier, and the crate's with ours.
        let ours = hash_password("correct horse");
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        assert!(
            Argon2::default()
                .verify_password(b"correct hors", &parsed)
                .is_err()
        );
        let salt = SaltString::encode_b64(b"sixteen byte slt").unwrap();
        let theirs = Argon2::default()
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        assert!(password_matches("battery staple", &theirs));
        assert!(!password_matches("battery stapler", &theirs));
        // The same salt and password give the crate's own string.
        let (a, v) = (Algorithm::Argon2id, Version::V0x13);
        let same = hash_with(&Argon2::default(), a, v, b"battery staple", salt.as_salt());
        assert_eq!(same.unwrap().to_string(), theirs);
    }

    #[test]
    fn a_password_matches_its_hash_only() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(password_matches("correct horse", &h));
        assert!(!password_matches("correct hors", &h));
        assert!(!password_matches("correct horse", "not a hash"));
        assert_ne!(h, hash_password("correct horse"), "salted");
    }
}
