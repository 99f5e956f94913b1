//! `byog serve` over real loopback sockets: games played over the websocket, reconnects,
//! a killed server, watchers, verification and hostile input; the data folder's faults, a
//! damaged database, migrations and scores (one test binary, a module a file).

mod chaos;
mod child;
mod common;
mod damage;
mod data_folder;
mod hostile;
mod keylog;
mod limits;
mod migrations;
mod play;
mod restart;
mod scores;
mod verify;
