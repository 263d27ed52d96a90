//! Tests of the network side with a fake turn loop.
