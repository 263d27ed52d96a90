//! The server's world, with no I/O: the rules' [`World`](crate::rules::megachess::World), the
//! players as the server knows them (names, tokens, connections, house bots), joins and army
//! placement, moves and whole turns from connections, turn ends, and what each of these says to
//! whom and writes to the log. The turn loop ([`super::turns`]) owns one and feeds it requests.
