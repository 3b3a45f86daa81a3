//! The daemon's game session: the loaded plugins, the chosen variant and
//! evaluator, and the current position. Every change is built aside and
//! swapped in only when it fully succeeds, so a bad command changes nothing.

use std::path::PathBuf;
use std::sync::Arc;

use plyd_protocol::StartPosition;

use crate::host::{Evaluator, GameState, LoadError, PluginHost, VariantRef};

/// The chosen variant with its position and evaluator.
pub struct Current {
    /// The variant.
    pub variant: VariantRef,
    /// The position `go` searches from.
    pub state: GameState,
    /// The evaluator the search uses.
    pub evaluator: Arc<Evaluator>,
}

/// Plugins plus the current game.
pub struct Session {
    /// Loaded plugins.
    pub host: PluginHost,
    /// The game being played; `None` when no plugin is loaded.
    pub current: Option<Current>,
}

impl Session {
    /// Load the plugins from `dirs` and select `game` (or the default).
    /// Returns the session and one message per problem.
    pub fn open(
        dirs: &[PathBuf],
        game: Option<&str>,
        evaluator: Option<&str>,
    ) -> (Self, Vec<String>) {
        let report = PluginHost::scan(dirs);
        let mut messages: Vec<String> = report.errors.iter().map(LoadError::to_string).collect();
        let mut session = Session {
            host: report.host,
            current: None,
        };
        if session.host.games().is_empty() {
            messages.push(format!(
                "no game plugin found in {}",
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            return (session, messages);
        }
        let wanted = game.and_then(|name| {
            let found = session.host.find_variant(name);
            if found.is_none() {
                messages.push(format!(
                    "game '{name}' is not loaded (loaded: {}); using the default",
                    session.host.variant_names().join(", ")
                ));
            }
            found
        });
        let candidates = wanted.into_iter().chain(session.default_variants());
        for variant in candidates {
            match Self::start(&variant, evaluator) {
                Ok((current, warning)) => {
                    messages.extend(warning);
                    session.current = Some(current);
                    break;
                }
                Err(e) => messages.push(e),
            }
        }
        (session, messages)
    }

    /// Variants in the order tried when none is asked for: Othello first
    /// (the default game), then everything else in load order.
    fn default_variants(&self) -> Vec<VariantRef> {
        let mut variants = self.host.variants();
        variants.sort_by_key(|v| v.name() != "othello");
        variants
    }

    /// A fresh `Current` for `variant` at its start position, with the
    /// evaluator named `evaluator` if it has one, else its default. The
    /// second value warns when the named evaluator was not found.
    fn start(
        variant: &VariantRef,
        evaluator: Option<&str>,
    ) -> Result<(Current, Option<String>), String> {
        let state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
        let evaluators = variant.plugin.evaluators();
        if evaluators.is_empty() {
            return Err(format!(
                "game {} offers no evaluator",
                variant.plugin.name()
            ));
        }
        let named = evaluator.and_then(|name| {
            evaluators
                .iter()
                .position(|e| e.name.eq_ignore_ascii_case(name))
        });
        let warning = match (evaluator, named) {
            (Some(name), None) => Some(format!(
                "evaluator '{name}' is not offered by {}; using {}",
                variant.plugin.name(),
                evaluators[0].name
            )),
            _ => None,
        };
        let evaluator =
            Evaluator::new(&variant.plugin, named.unwrap_or(0), None).map_err(|e| e.to_string())?;
        Ok((
            Current {
                variant: variant.clone(),
                state,
                evaluator: Arc::new(evaluator),
            },
            warning,
        ))
    }

    /// The current game, or the error to report when there is none.
    pub fn current(&self) -> Result<&Current, String> {
        self.current
            .as_ref()
            .ok_or_else(|| "no game is loaded (see PluginPath)".to_string())
    }

    /// Switch to the variant `name`, at its start position. The evaluator
    /// keeps its name if the new game offers one of that name.
    pub fn select_variant(&mut self, name: &str) -> Result<(), String> {
        let variant = self.host.find_variant(name).ok_or_else(|| {
            format!(
                "unknown variant '{name}' (loaded: {})",
                self.host.variant_names().join(", ")
            )
        })?;
        let keep = self
            .current
            .as_ref()
            .map(|c| c.evaluator.name().to_string());
        let (current, _) = Self::start(&variant, keep.as_deref())?;
        self.current = Some(current);
        Ok(())
    }

    /// Select the evaluator `name` of the current game.
    pub fn select_evaluator(&mut self, name: &str) -> Result<(), String> {
        let current = self.current.as_mut().ok_or("no game is loaded")?;
        let plugin = &current.variant.plugin;
        let index = plugin
            .evaluators()
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "{} has no evaluator '{name}' (it has: {})",
                    plugin.name(),
                    plugin
                        .evaluators()
                        .iter()
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        let evaluator = Evaluator::new(plugin, index, None).map_err(|e| e.to_string())?;
        current.evaluator = Arc::new(evaluator);
        Ok(())
    }

    /// Set the position from `position startpos|fen ... moves ...`.
    pub fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String> {
        let current = self.current.as_mut().ok_or("no game is loaded")?;
        let mut state = GameState::new(&current.variant.plugin, current.variant.index)
            .map_err(|e| e.to_string())?;
        if let StartPosition::Fen(text) = start {
            state
                .set_position(text)
                .map_err(|e| format!("bad position '{text}': {e}"))?;
        }
        for (i, text) in moves.iter().enumerate() {
            let mv = state.parse_legal_move(text).map_err(|e| {
                format!(
                    "move {} ('{text}') rejected: {e}; position unchanged",
                    i + 1
                )
            })?;
            state.make_move(mv).map_err(|e| e.to_string())?;
        }
        current.state = state;
        Ok(())
    }

    /// Back to the start position of the current variant.
    pub fn reset_position(&mut self) -> Result<(), String> {
        self.set_position(&StartPosition::StartPos, &[])
    }

    /// Reload every plugin from `dirs`, keeping the current variant and
    /// evaluator names where they still exist. On failure (nothing loads)
    /// the old plugins stay. Returns the problems met along the way.
    pub fn reload(&mut self, dirs: &[PathBuf]) -> Result<Vec<String>, String> {
        let variant = self.current.as_ref().map(|c| c.variant.name().to_string());
        let evaluator = self
            .current
            .as_ref()
            .map(|c| c.evaluator.name().to_string());
        let (fresh, messages) = Session::open(dirs, variant.as_deref(), evaluator.as_deref());
        if fresh.current.is_none() {
            return Err(messages.join("; "));
        }
        *self = fresh;
        Ok(messages)
    }
}
