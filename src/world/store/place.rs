//! Where a world is stored, as `--db` names it: an SQLite file (the embedded default) or a
//! PostgreSQL database (`postgres://` or `postgresql://`, shared by servers on other machines).

use std::fmt;
use std::path::PathBuf;

/// A world's store, by place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorePlace {
    /// An SQLite file.
    File(PathBuf),
    /// A PostgreSQL database; the world is the database's tables (one world per database).
    Postgres(PostgresUrl),
}

/// A PostgreSQL connection URL; printed with its password hidden.
#[derive(Clone, PartialEq, Eq)]
pub struct PostgresUrl {
    url: String,
}

impl PostgresUrl {
    /// The URL as given, password and all: for connecting, never for printing.
    pub fn secret(&self) -> &str {
        &self.url
    }
}

impl fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "PostgresUrl({self})")
    }
}

impl fmt::Display for PostgresUrl {
    /// `postgres://user:***@host/db`: the password between the user's `:` and the `@` hidden.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (scheme, rest) = self.url.split_once("://").unwrap_or(("", &self.url));
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(authority_end);
        match authority.rsplit_once('@') {
            Some((user_info, host)) => {
                let user = user_info
                    .split_once(':')
                    .map_or(user_info, |(user, _)| user);
                let hidden = if user.len() < user_info.len() {
                    ":***"
                } else {
                    ""
                };
                write!(f, "{scheme}://{user}{hidden}@{host}{tail}")
            }
            None => write!(f, "{}", self.url),
        }
    }
}

impl StorePlace {
    /// `--db`'s value: a PostgreSQL URL by its scheme, otherwise a file's path.
    pub fn parse(text: &str) -> StorePlace {
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            StorePlace::Postgres(PostgresUrl {
                url: text.to_string(),
            })
        } else {
            StorePlace::File(PathBuf::from(text))
        }
    }
}

impl From<PathBuf> for StorePlace {
    fn from(path: PathBuf) -> StorePlace {
        StorePlace::File(path)
    }
}

impl fmt::Display for StorePlace {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StorePlace::File(path) => write!(f, "{}", path.display()),
            StorePlace::Postgres(url) => write!(f, "{url}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_told_from_a_path_and_printed_without_its_password() {
        assert_eq!(
            StorePlace::parse("worlds/a.sqlite"),
            StorePlace::File(PathBuf::from("worlds/a.sqlite"))
        );
        let place =
            StorePlace::parse("postgres://roger:s3cret@db.example:5433/worlds?sslmode=disable");
        let StorePlace::Postgres(url) = &place else {
            panic!("{place:?} is not PostgreSQL");
        };
        assert_eq!(
            url.secret(),
            "postgres://roger:s3cret@db.example:5433/worlds?sslmode=disable"
        );
        assert_eq!(
            place.to_string(),
            "postgres://roger:***@db.example:5433/worlds?sslmode=disable"
        );
        assert!(!format!("{place:?}").contains("s3cret"));
        for (given, shown) in [
            ("POSTGRESQL://u@h/d", "POSTGRESQL://u@h/d"),
            ("postgresql://h/d", "postgresql://h/d"),
            ("postgres://u:p:q@h", "postgres://u:***@h"),
        ] {
            assert_eq!(StorePlace::parse(given).to_string(), shown);
        }
    }
}
