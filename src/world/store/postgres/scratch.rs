//! A database of its own for a test or a measured run, made on a PostgreSQL server and dropped
//! afterwards: the PostgreSQL counterpart of a scratch folder's world file.

use super::describe;
use crate::world::store::{PostgresUrl, StorePlace};
use postgres::{Client, NoTls};
use std::sync::atomic::{AtomicU32, Ordering};

/// The variable naming the PostgreSQL server the tests use: a URL whose user may create
/// databases (`.ci/run` starts one and sets it), or `skip` to leave those tests out.
pub const TEST_SERVER_VARIABLE: &str = "ROGER_TEST_POSTGRES";

/// A database made for one use and dropped (with anything still connected to it) when this
/// goes.
pub struct ScratchDatabase {
    /// The server's URL as given, to drop the database from.
    server: PostgresUrl,
    name: String,
    url: PostgresUrl,
}

/// `url` with its database replaced by `database` (the path after the authority).
fn with_database(url: &str, database: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let query = tail.find('?').map_or("", |at| &tail[at..]);
    format!("{scheme}://{authority}/{database}{query}")
}

fn connect(url: &PostgresUrl) -> Result<Client, String> {
    Client::connect(url.secret(), NoTls)
        .map_err(|error| format!("connecting to {url}: {}", describe(&error)))
}

impl ScratchDatabase {
    /// A new, empty database on the server at `server`, its name made of `label`, this
    /// process and a counter.
    pub fn new(server: &PostgresUrl, label: &str) -> Result<ScratchDatabase, String> {
        static MADE: AtomicU32 = AtomicU32::new(0);
        let clean: String = label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(30)
            .collect();
        let name = format!(
            "roger_{}_{}_{clean}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = connect(server)?;
        // A name of letters, digits and underscores only: quoting it is enough.
        // One statement each: a batch of several runs as one transaction, which these refuse.
        for sql in [
            format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"),
            format!("CREATE DATABASE \"{name}\""),
        ] {
            admin
                .batch_execute(&sql)
                .map_err(|error| format!("creating database {name}: {}", describe(&error)))?;
        }
        let url = match StorePlace::parse(&with_database(server.secret(), &name)) {
            StorePlace::Postgres(url) => url,
            StorePlace::File(_) => unreachable!("a postgres:// URL with another database"),
        };
        Ok(ScratchDatabase {
            server: server.clone(),
            name,
            url,
        })
    }

    /// A database on the tests' server (`ROGER_TEST_POSTGRES`); `None` when that says `skip`.
    /// Panics, saying what to set, when there is no server to use.
    pub fn for_test(label: &str) -> Option<ScratchDatabase> {
        let value = std::env::var(TEST_SERVER_VARIABLE).unwrap_or_default();
        if value == "skip" {
            eprintln!("{TEST_SERVER_VARIABLE}=skip: this PostgreSQL test is left out");
            return None;
        }
        let StorePlace::Postgres(server) = StorePlace::parse(&value) else {
            panic!(
                "{TEST_SERVER_VARIABLE} is '{value}', not a postgres:// URL: set it to a \
                 PostgreSQL server whose user may create databases (.ci/run starts one and sets \
                 it), or to skip to leave the PostgreSQL tests out"
            );
        };
        Some(ScratchDatabase::new(&server, label).unwrap_or_else(|error| panic!("{error}")))
    }

    pub fn url(&self) -> &PostgresUrl {
        &self.url
    }

    pub fn place(&self) -> StorePlace {
        StorePlace::Postgres(self.url.clone())
    }

    /// Runs `sql` on the database (a test damaging rows, as another program would).
    pub fn execute(&self, sql: &str) -> Result<(), String> {
        connect(&self.url)?
            .batch_execute(sql)
            .map_err(|error| format!("{sql}: {}", describe(&error)))
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        if let Ok(mut admin) = connect(&self.server) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)",
                self.name
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn the_database_of_a_url_is_replaced() {
        assert_eq!(
            with_database("postgres://u:p@h:5432/postgres?sslmode=disable", "w1"),
            "postgres://u:p@h:5432/w1?sslmode=disable"
        );
        assert_eq!(with_database("postgresql://h", "w2"), "postgresql://h/w2");
        assert_eq!(
            with_database("postgres://h?x=1", "w3"),
            "postgres://h/w3?x=1"
        );
    }
}
