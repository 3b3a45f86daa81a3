//! Scheduling: `--concurrency` workers, each with its own pair of engine
//! processes kept alive from game to game, take game numbers from a shared
//! counter and send finished games to the main thread, which alone writes
//! the log and the progress and decides when to stop.
//!
//! The game numbers to play are a list, not a range: a resumed match plays
//! only those its log does not hold. When the match is interrupted, workers
//! start no new game, and a game in progress ends without a record (its
//! engines are killed, as they may be in the middle of a search).
//!
//! Game `n` (from 0) plays the opening of pair `n / 2`; the first engine
//! takes the first side in even games and the second side in odd ones. The
//! opening and the chance outcomes depend on the pair only, so which worker
//! plays a game, and when, changes nothing but timing.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crossbeam_channel::{bounded, unbounded, Sender};

use crate::args::EngineSpec;
use crate::engine::{EngineError, EngineProcess};
use crate::interrupt::Cancel;
use crate::openings::Opening;
use crate::record::GameRecord;
use crate::referee::{play_game, GameOrder, Rules, Unfinished};
use plyd_util::rng::SplitMix64;

/// Stream number of the chance-outcome generator (see [`SplitMix64::for_item`]).
const CHANCE_STREAM: u64 = 2;

/// What a worker tells the main thread.
enum Report {
    /// A finished game, and where to say whether to go on.
    Game(Box<GameRecord>, Sender<bool>),
    /// The worker cannot go on (the referee failed, or an engine cannot be
    /// restarted); the match stops.
    Fatal(String),
}

/// A match to play.
pub struct Match<'a> {
    /// The two engines.
    pub specs: &'a [EngineSpec; 2],
    /// What every game shares.
    pub rules: &'a Rules,
    /// One opening per pair of games.
    pub openings: &'a [Opening],
    /// The games to play, by index (game number - 1), in the order they
    /// are handed out.
    pub pending: &'a [usize],
    /// Workers.
    pub concurrency: usize,
    /// Fires when the match is interrupted.
    pub cancel: &'a Cancel,
}

impl Match<'_> {
    /// Start every worker's pair of engines, before the first game, so that
    /// a bad command line is reported at once and not after hours of play.
    pub fn start_engines(&self) -> Result<Vec<[EngineProcess; 2]>, EngineError> {
        let game = self.rules.variant.name();
        let workers = self.concurrency.clamp(1, self.pending.len().max(1));
        let mut pairs = Vec::new();
        for _ in 0..workers {
            let a = EngineProcess::start(&self.specs[0], game, self.cancel)?;
            let b = EngineProcess::start(&self.specs[1], game, self.cancel)?;
            pairs.push([a, b]);
        }
        Ok(pairs)
    }

    /// Play the match with the engine pairs from [`Match::start_engines`],
    /// handing every finished game to `on_game`, which returns `false` to
    /// stop the match (games other workers have in progress still finish
    /// and are handed over). An `Err` says why the match broke off. An
    /// interrupted match returns `Ok` with the games finished until then
    /// handed over; the caller asks the [`Cancel`] whether it was.
    pub fn play(
        &self,
        pairs: Vec<[EngineProcess; 2]>,
        mut on_game: impl FnMut(&GameRecord) -> bool,
    ) -> Result<(), String> {
        let game = self.rules.variant.name().to_string();
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (tx, rx) = unbounded();
        let mut fatal = None;
        std::thread::scope(|scope| {
            for engines in pairs {
                let tx = tx.clone();
                let (next, stop, game) = (&next, &stop, game.as_str());
                scope.spawn(move || self.worker(engines, next, stop, game, tx));
            }
            drop(tx);
            for report in rx {
                match report {
                    Report::Game(record, go_on) => {
                        if !on_game(&record) {
                            stop.store(true, Ordering::Relaxed);
                        }
                        let _ = go_on.send(!stop.load(Ordering::Relaxed));
                    }
                    Report::Fatal(why) => {
                        stop.store(true, Ordering::Relaxed);
                        fatal.get_or_insert(why);
                    }
                }
            }
        });
        match fatal {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    fn worker(
        &self,
        mut engines: [EngineProcess; 2],
        next: &AtomicUsize,
        stop: &AtomicBool,
        game: &str,
        tx: Sender<Report>,
    ) {
        loop {
            if stop.load(Ordering::Relaxed) || self.cancel.is_set() {
                break;
            }
            let Some(&n) = self.pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            if let Err(why) = self.make_ready(&mut engines, game) {
                if !self.cancel.is_set() {
                    let _ = tx.send(Report::Fatal(why));
                }
                break;
            }
            let pair = n / 2;
            let order = GameOrder {
                number: n + 1,
                opening: &self.openings[pair],
                first_engine: n % 2,
                chance: SplitMix64::for_item(self.rules.seed, CHANCE_STREAM, pair as u64),
            };
            match play_game(&mut engines, self.rules, order) {
                Ok(record) => {
                    // Wait for the main thread's word before another game,
                    // so that a decision (an SPRT verdict) stops this worker
                    // at once, not some games later. The only sender travels
                    // with the report: if the main thread drops it unread,
                    // the wait ends and the worker stops.
                    let (go_on_tx, go_on) = bounded(1);
                    let sent = tx.send(Report::Game(Box::new(record), go_on_tx));
                    if sent.is_err() || !go_on.recv().unwrap_or(false) {
                        break;
                    }
                }
                Err(Unfinished::Interrupted) => break,
                Err(Unfinished::Referee(why)) => {
                    let _ = tx.send(Report::Fatal(why));
                    break;
                }
            }
        }
        // An engine interrupted mid-search was marked unusable and is killed
        // at once; an idle one is asked to quit.
        for engine in engines {
            engine.quit();
        }
    }

    /// Get both engines ready for a new game, restarting one that died or
    /// overran its time. An engine that fails right after a restart ends
    /// the match: it would lose every game without playing.
    fn make_ready(&self, engines: &mut [EngineProcess; 2], game: &str) -> Result<(), String> {
        for (engine, spec) in engines.iter_mut().zip(self.specs) {
            let why = match engine.dead_reason() {
                Some(why) => why.to_string(),
                None => match engine.new_game() {
                    Ok(()) => continue,
                    Err(e) => format!("failed to start a new game ({e})"),
                },
            };
            // A line of the arena's own, as its progress is: not the
            // log's, which `RUST_LOG` could silence.
            crate::say(&format!("engine {}: {why}; restarting it", spec.name));
            engine.shut_down();
            *engine = EngineProcess::start(spec, game, self.cancel)
                .map_err(|e| format!("cannot restart: {e}"))?;
            engine
                .new_game()
                .map_err(|e| format!("after a restart: {e}"))?;
        }
        Ok(())
    }
}
