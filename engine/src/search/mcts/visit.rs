//! One visit of the tree: down from the root by selection, one new node
//! expanded, its value (the evaluation mapped to `[-1, 1]`, a short
//! playout where the plugin asks for one, or the exact result of a game
//! over), and that value backed up to the root.
//!
//! Plugin calls of a visit: `make_move` and `unmake_move` for each ply
//! down; at a node whose moves are not listed yet, `gen_moves` and (with
//! the widening style) `order_hints`, or `chance_outcomes`; at the new
//! node `side_to_move`, `outcome`, `chance_outcomes` (p), `hash` and
//! `evaluate`.

use plyd_api::Move;

use super::select::{self, Shape, Step, Style};
use super::tree::{Node, NodeId, NodeKind, Proof, Tree};
use super::value::ValueMap;
use crate::host::{Evaluator, GameState, Outcome, PluginError};
use crate::search::EvaluatingFlag;

/// How the visits of one search run.
#[derive(Debug, Clone)]
pub struct VisitConfig {
    /// The selection rule.
    pub style: Style,
    /// Scores to values.
    pub map: ValueMap,
    /// The evaluator's bound (evaluations are clamped into it).
    pub bound: i32,
    /// Plies of random play before the evaluation (0: none).
    pub playout_plies: u32,
    /// Whether the game has chance nodes.
    pub chance: bool,
    /// The moves the root may play (empty: all).
    pub root_moves: Vec<Move>,
    /// The most nodes the tree may hold; past it, visits evaluate new
    /// positions without keeping them.
    pub max_nodes: usize,
    /// The tree policy's constants (`MctsExploration`, `MctsWidening`).
    pub shape: Shape,
}

/// Moves listed at a time at a widening node: a node of `N` visits has
/// about `sqrt(N)` children, so most nodes never need the rest of a long
/// list, and the list is made again (the same, best first) when they do.
const WIDENING_CHUNK: usize = 32;

/// Visits a widening node must have had before its moves are ordered by
/// the plugin's hints. Hints cost the most of all calls where moves are
/// many (the Amazons' floods over 2,000 moves), and most nodes of a tree
/// are visited only a few times: their first children are taken in
/// random order, like seed 003's, and the hints are asked for once the
/// node has proven worth visiting.
pub const HINT_AFTER_VISITS: u32 = 8;

/// One thread's tree walker.
pub struct Visitor<'a> {
    pub state: GameState,
    pub tree: Tree,
    pub config: &'a VisitConfig,
    pub evaluator: &'a Evaluator,
    /// Deepest ply reached.
    pub max_depth: u32,
    /// Up while this walker is inside a call of the evaluator (the
    /// search's flag for its thread).
    pub evaluating: Option<&'a EvaluatingFlag>,
    rng: u64,
    path: Vec<Move>,
    moves: Vec<Move>,
    hints: Vec<i32>,
    outcomes: Vec<(Move, u32)>,
}

impl<'a> Visitor<'a> {
    /// A walker over `tree`, whose root is `state`'s position.
    pub fn new(
        state: GameState,
        tree: Tree,
        config: &'a VisitConfig,
        evaluator: &'a Evaluator,
        seed: u64,
    ) -> Self {
        let max_depth = tree.depth();
        Visitor {
            state,
            tree,
            config,
            evaluator,
            max_depth,
            evaluating: None,
            rng: seed | 1,
            path: Vec::new(),
            moves: Vec::new(),
            hints: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// A node for the position `state` is in now, reached by `mv` from
    /// `parent`: its side, outcome and kind, and its proof if the game is
    /// over.
    pub fn describe(&mut self, mv: Move, parent: NodeId) -> Result<Node, PluginError> {
        let side = self.state.side_to_move()?;
        let hash = self.state.hash();
        let mut node = Node::new(hash, mv, parent, side, NodeKind::Decision);
        match self.state.outcome()? {
            Outcome::Ongoing => {
                if self.config.chance {
                    self.state.chance_outcomes(&mut self.outcomes)?;
                    if !self.outcomes.is_empty() {
                        node.kind = NodeKind::Chance;
                    }
                }
            }
            outcome => {
                node.kind = NodeKind::Terminal;
                node.proof = match outcome {
                    Outcome::Win => Proof::Win(0),
                    Outcome::Loss => Proof::Loss(0),
                    _ => Proof::Draw,
                };
            }
        }
        Ok(node)
    }

    fn random(&mut self) -> u64 {
        // xorshift64*: fast, and the same sequence for the same seed, so
        // a search by node count repeats itself on one thread.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// One visit. The state is back at the root afterwards, even when a
    /// plugin call fails.
    pub fn visit(&mut self) -> Result<(), PluginError> {
        self.path.clear();
        let outcome = self.descend();
        let mut undo = Ok(());
        while let Some(mv) = self.path.pop() {
            if let Err(e) = self.state.unmake_move(mv) {
                undo = Err(e);
                break;
            }
        }
        outcome.and(undo)
    }

    fn descend(&mut self) -> Result<(), PluginError> {
        let mut id = Tree::ROOT;
        loop {
            let node = self.tree.node(id);
            if let Some(value) = node.proof.value() {
                let side = node.side;
                self.backup(id, value, side);
                return Ok(());
            }
            if node.pending.is_none() || self.needs_relist(id) {
                if !self.tree.is_capped() {
                    self.list_moves(id)?;
                } else if node.children.is_empty() {
                    // Memory stopped the tree: a node whose moves were
                    // never listed stays a leaf, its value so far standing.
                    let (mean, side) = (node.mean(), node.side);
                    self.backup(id, mean, side);
                    return Ok(());
                }
            }
            let full = !self.tree.room(self.config.max_nodes);
            let next = match self.tree.node(id).kind {
                NodeKind::Chance => self.sample_outcome(id),
                _ => {
                    match select::decide(&self.tree, id, self.config.style, self.config.shape, full)
                    {
                        Step::Descend(child) => Ok(child),
                        Step::Expand => Err(self.take_pending(id)),
                    }
                }
            };
            match next {
                Ok(child) => {
                    let mv = self.tree.node(child).mv;
                    self.play(mv)?;
                    id = child;
                }
                Err(Some((mv, weight))) => {
                    self.play(mv)?;
                    return self.expand(id, mv, weight);
                }
                Err(None) => {
                    // Nothing left to expand (a node with no moves the
                    // plugin did not call over): its mean stands.
                    let node = self.tree.node(id);
                    let (mean, side) = (node.mean(), node.side);
                    self.backup(id, mean, side);
                    return Ok(());
                }
            }
        }
    }

    fn play(&mut self, mv: Move) -> Result<(), PluginError> {
        self.state.make_move(mv)?;
        self.path.push(mv);
        self.max_depth = self.max_depth.max(self.path.len() as u32);
        Ok(())
    }

    /// Whether a widening node has used up the chunk of moves it listed,
    /// or has been visited enough to have them ordered by hints.
    fn needs_relist(&self, id: NodeId) -> bool {
        let node = self.tree.node(id);
        node.kind == NodeKind::Decision
            && (node.children.len() as u32) < node.move_count
            && (node.pending.as_ref().is_some_and(|p| p.is_empty())
                || (self.config.style == Style::Widening
                    && !node.hinted
                    && node.visits >= HINT_AFTER_VISITS))
    }

    /// List the moves (or outcomes) of `id`, whose position the state is
    /// in, leaving out those already expanded; the next to expand last.
    fn list_moves(&mut self, id: NodeId) -> Result<(), PluginError> {
        let kind = self.tree.node(id).kind;
        let mut pending: Vec<(Move, u32)> = Vec::new();
        if kind == NodeKind::Chance {
            self.state.chance_outcomes(&mut self.outcomes)?;
            pending.extend(self.outcomes.iter().copied());
            let bytes = pending.capacity() * std::mem::size_of::<(Move, u32)>();
            let node = self.tree.node_mut(id);
            node.move_count = pending.len() as u32;
            node.pending = Some(pending);
            self.tree.lists_grew(bytes as u64);
            return Ok(());
        }
        self.state.legal_moves(&mut self.moves)?;
        if id == Tree::ROOT && !self.config.root_moves.is_empty() {
            let allowed = &self.config.root_moves;
            self.moves.retain(|m| allowed.contains(m));
        }
        let count = self.moves.len() as u32;
        let expanded: Vec<Move> = {
            let node = self.tree.node(id);
            node.children
                .iter()
                .map(|&c| self.tree.node(c).mv)
                .collect()
        };
        match self.config.style {
            Style::Seed003 => {
                // A random order, taken from the end: seed 003 adds a
                // random unexplored child at each visit.
                self.moves.retain(|m| !expanded.contains(m));
                for i in (1..self.moves.len()).rev() {
                    let j = (self.random() % (i as u64 + 1)) as usize;
                    self.moves.swap(i, j);
                }
                pending.extend(self.moves.iter().map(|&m| (m, 0)));
            }
            Style::Widening if self.tree.node(id).visits < HINT_AFTER_VISITS => {
                self.moves.retain(|m| !expanded.contains(m));
                for i in (1..self.moves.len()).rev() {
                    let j = (self.random() % (i as u64 + 1)) as usize;
                    self.moves.swap(i, j);
                }
                self.moves.truncate(WIDENING_CHUNK);
                pending.extend(self.moves.iter().map(|&m| (m, 0)));
            }
            Style::Widening => {
                self.tree.node_mut(id).hinted = true;
                self.state.order_hints(&self.moves, &mut self.hints)?;
                let mut ranked: Vec<(i32, Move)> = self
                    .hints
                    .iter()
                    .copied()
                    .zip(self.moves.iter().copied())
                    .filter(|(_, m)| !expanded.contains(m))
                    .collect();
                // Best hint first; equal hints by move, so the list made
                // again later is the same.
                ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                ranked.truncate(WIDENING_CHUNK);
                pending.extend(ranked.iter().rev().map(|&(_, m)| (m, 0)));
            }
        }
        let bytes = pending.capacity() * std::mem::size_of::<(Move, u32)>();
        let node = self.tree.node_mut(id);
        node.move_count = count;
        node.pending = Some(pending);
        self.tree.lists_grew(bytes as u64);
        Ok(())
    }

    fn take_pending(&mut self, id: NodeId) -> Option<(Move, u32)> {
        self.tree.node_mut(id).pending.as_mut()?.pop()
    }

    /// At a chance node, an outcome drawn by weight: `Ok` an expanded
    /// child, `Err` one to expand.
    fn sample_outcome(&mut self, id: NodeId) -> Result<NodeId, Option<(Move, u32)>> {
        let node = self.tree.node(id);
        let pending = node.pending.as_deref().unwrap_or(&[]);
        let total: u64 = node
            .children
            .iter()
            .map(|&c| u64::from(self.tree.node(c).weight))
            .chain(pending.iter().map(|&(_, w)| u64::from(w)))
            .sum();
        if total == 0 {
            return Err(None);
        }
        let mut pick = self.random() % total;
        let node = self.tree.node(id);
        for &child in &node.children {
            let w = u64::from(self.tree.node(child).weight);
            if pick < w {
                return Ok(child);
            }
            pick -= w;
        }
        let pending = node.pending.as_deref().unwrap_or(&[]);
        let mut index = pending.len() - 1;
        for (i, &(_, w)) in pending.iter().enumerate() {
            if pick < u64::from(w) {
                index = i;
                break;
            }
            pick -= u64::from(w);
        }
        let taken = self
            .tree
            .node_mut(id)
            .pending
            .as_mut()
            .map(|p| p.remove(index));
        Err(taken)
    }

    /// Add the position reached by `mv` from `parent` (the state is in
    /// it), value it, and back the value up.
    fn expand(&mut self, parent: NodeId, mv: Move, weight: u32) -> Result<(), PluginError> {
        let mut node = self.describe(mv, parent)?;
        node.weight = weight;
        let side = node.side;
        let value = match node.proof.value() {
            Some(exact) => exact,
            None => self.leaf_value(side)?,
        };
        if !self.tree.room(self.config.max_nodes) {
            // The tree is full: the value still counts, through the parent.
            // The parent must not wait for a child that never comes.
            if let Some(p) = self.tree.node_mut(parent).pending.as_mut() {
                p.push((mv, weight));
            }
            self.backup(parent, value, side);
            return Ok(());
        }
        let proven = node.proof != Proof::Unknown;
        let child = self.tree.add_child(parent, node);
        self.backup(child, value, side);
        if proven {
            select::update_proofs(&mut self.tree, parent);
        }
        Ok(())
    }

    /// The value of the position the state is in, for `side`: the
    /// evaluation, after a short random playout where one is asked for.
    fn leaf_value(&mut self, side: u32) -> Result<f64, PluginError> {
        if self.config.playout_plies == 0 {
            return self.evaluate(side);
        }
        let mut played = Vec::new();
        let value = self.playout(side, &mut played);
        let mut undo = Ok(());
        for &mv in played.iter().rev() {
            if let Err(e) = self.state.unmake_move(mv) {
                undo = Err(e);
                break;
            }
        }
        let value = value?;
        undo.map(|()| value)
    }

    /// The evaluation of the position the state is in, whose side to
    /// move is `side`, as a value for that side.
    fn evaluate(&mut self, side: u32) -> Result<f64, PluginError> {
        let bound = self.config.bound;
        let (evaluator, state) = (self.evaluator, &self.state);
        let score = EvaluatingFlag::around(self.evaluating, || evaluator.evaluate(state))?
            .clamp(-bound, bound);
        Ok(self.config.map.value(score, side))
    }

    /// Random moves (and outcomes by weight) until the game ends or the
    /// plies run out; the value at the end, for `side`.
    fn playout(&mut self, side: u32, played: &mut Vec<Move>) -> Result<f64, PluginError> {
        for _ in 0..self.config.playout_plies {
            let here = self.state.side_to_move()?;
            let sign = if here == side { 1.0 } else { -1.0 };
            match self.state.outcome()? {
                Outcome::Ongoing => {}
                Outcome::Win => return Ok(sign),
                Outcome::Loss => return Ok(-sign),
                Outcome::Draw => return Ok(0.0),
            }
            let mv = if self.config.chance && {
                self.state.chance_outcomes(&mut self.outcomes)?;
                !self.outcomes.is_empty()
            } {
                let total: u64 = self.outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
                let mut pick = self.random() % total.max(1);
                let mut chosen = self.outcomes[0].0;
                for &(m, w) in &self.outcomes {
                    if pick < u64::from(w) {
                        chosen = m;
                        break;
                    }
                    pick -= u64::from(w);
                }
                chosen
            } else {
                self.state.legal_moves(&mut self.moves)?;
                if self.moves.is_empty() {
                    break;
                }
                let i = (self.random() % self.moves.len() as u64) as usize;
                self.moves[i]
            };
            self.state.make_move(mv)?;
            played.push(mv);
        }
        let here = self.state.side_to_move()?;
        let sign = if here == side { 1.0 } else { -1.0 };
        let value = match self.state.outcome()? {
            Outcome::Ongoing => self.evaluate(here)?,
            Outcome::Win => 1.0,
            Outcome::Loss => -1.0,
            Outcome::Draw => 0.0,
        };
        Ok(sign * value)
    }

    /// Add `value`, for `side`, to `id` and every node above it.
    fn backup(&mut self, mut id: NodeId, value: f64, side: u32) {
        loop {
            let node = self.tree.node_mut(id);
            node.visits += 1;
            node.value_sum += if node.side == side { value } else { -value };
            if id == Tree::ROOT {
                return;
            }
            id = node.parent;
        }
    }
}
