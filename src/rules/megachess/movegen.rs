//! Movement as data: each kind's directions, range and whether it jumps; the pawn's and the
//! bishop's special steps are code. The rules' owner fills this in (the shape of cozy-chess's
//! per-piece move sets).
