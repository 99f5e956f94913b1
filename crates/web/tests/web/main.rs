//! `byog serve` over real loopback sockets: games played over the websocket, reconnects,
//! a killed server, watchers, verification and hostile input (one test binary, a module a
//! file).

mod common;
mod hostile;
mod limits;
mod play;
mod restart;
mod verify;
