//! Standard chess.
