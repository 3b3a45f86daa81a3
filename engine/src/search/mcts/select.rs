//! Selection: which child a visit goes through (UCT with progressive
//! widening by the plugin's hints, or seed 003's UCT with random
//! expansion), how proven results rise through the tree, and which root
//! move is played.

use super::tree::{NodeId, NodeKind, Proof, Tree};

/// Which selection rule the search follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// plyd's own: children are expanded in the order of the plugin's
    /// hints, one per visit while the node's width allows another
    /// (progressive widening); among the expanded ones, UCT. The move
    /// played is the most visited.
    Widening,
    /// Seed 003's: every child is expanded, in random order, one per
    /// visit, before any is visited again; then UCT with constant 1,
    /// `Q/N + sqrt(2 ln N_parent / N)`. The move played has the best mean.
    Seed003,
}

/// Seed 003's exploration constant `ε` (its `best_child(node, 1)`).
pub const SEED003_EXPLORATION: f64 = 1.0;
/// The default exploration constant of [`Style::Widening`], in
/// `mean + c × sqrt(ln N_parent / N)` (`MctsExploration` 600).
pub const WIDENING_EXPLORATION: f64 = 0.6;
/// The default widening factor of [`Style::Widening`]: a node of `N`
/// visits may have `1 + floor(k × sqrt(N))` children (`MctsWidening`
/// 1000).
pub const WIDENING_FACTOR: f64 = 1.0;

/// The two constants of [`Style::Widening`]'s tree policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    /// `c` of the UCT value.
    pub exploration: f64,
    /// `k` of the node's width.
    pub widening: f64,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            exploration: WIDENING_EXPLORATION,
            widening: WIDENING_FACTOR,
        }
    }
}

/// Seed 003's UCT value of a child with mean `mean` (for the parent's
/// side) and `visits` visits, under a parent of `parent_visits` visits:
/// `Q/N + ε sqrt(2 ln N_parent / N)`.
pub fn seed003_uct(mean: f64, visits: u32, parent_visits: u32, exploration: f64) -> f64 {
    let n = f64::from(visits.max(1));
    let parent = f64::from(parent_visits.max(1));
    mean + exploration * (2.0 * parent.ln() / n).sqrt()
}

/// The UCT value of [`Style::Widening`], exploration constant `c`.
pub fn widening_uct(mean: f64, visits: u32, parent_visits: u32, c: f64) -> f64 {
    let n = f64::from(visits.max(1));
    let parent = f64::from(parent_visits.max(1));
    mean + c * (parent.ln() / n).sqrt()
}

/// How many children a node of `visits` visits may have under
/// [`Style::Widening`], widening factor `k`.
pub fn widening_width(visits: u32, k: f64) -> usize {
    1 + (k * f64::from(visits).sqrt()) as usize
}

/// What a visit does at a decision node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Expand the next pending move.
    Expand,
    /// Go down to this child.
    Descend(NodeId),
}

/// The step at decision node `id`, whose moves are listed. With `full`
/// (the tree holds all the nodes it may), a node that has children goes
/// down to one of them rather than expand.
pub fn decide(tree: &Tree, id: NodeId, style: Style, shape: Shape, full: bool) -> Step {
    let node = tree.node(id);
    let may_expand = !full || node.children.is_empty();
    let has_pending = may_expand
        && (node.pending.as_ref().is_some_and(|p| !p.is_empty())
            || (node.children.len() as u32) < node.move_count);
    let may_widen = match style {
        Style::Seed003 => true,
        Style::Widening => node.children.len() < widening_width(node.visits, shape.widening),
    };
    if has_pending && may_widen {
        return Step::Expand;
    }
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for &child in &node.children {
        let c = tree.node(child);
        let value = match tree.proof_for_parent(id, child) {
            // A lost move is never chosen while another is open.
            Proof::Loss(_) => -1e9 + f64::from(c.visits).ln_1p(),
            _ => {
                let mean = tree.mean_for_parent(id, child);
                match style {
                    Style::Seed003 => seed003_uct(mean, c.visits, node.visits, SEED003_EXPLORATION),
                    Style::Widening => widening_uct(mean, c.visits, node.visits, shape.exploration),
                }
            }
        };
        if value > best_value {
            best_value = value;
            best = Some(child);
        }
    }
    match best {
        // Every expanded child is lost but some move is not expanded yet:
        // try it, whatever the width says.
        Some(child) if has_pending && tree.proof_for_parent(id, child).value() == Some(-1.0) => {
            Step::Expand
        }
        Some(child) => Step::Descend(child),
        None => Step::Expand,
    }
}

/// Settle what is proven of `id` from its children, and so on up the
/// tree while something new is proven.
pub fn update_proofs(tree: &mut Tree, mut id: NodeId) {
    loop {
        let node = tree.node(id);
        if node.proof != Proof::Unknown {
            return;
        }
        let complete = node.pending.is_some() && node.children.len() as u32 == node.move_count;
        let proof = match node.kind {
            NodeKind::Terminal => return,
            NodeKind::Decision => decision_proof(tree, id, complete),
            NodeKind::Chance => chance_proof(tree, id, complete),
        };
        if proof == Proof::Unknown {
            return;
        }
        tree.node_mut(id).proof = proof;
        let parent = tree.node(id).parent;
        if parent == super::tree::NO_NODE {
            return;
        }
        id = parent;
    }
}

/// A decision node is won when one child wins (the fastest), lost when
/// every move is expanded and lost (the slowest), drawn when every move is
/// expanded and proven and the best is a draw.
fn decision_proof(tree: &Tree, id: NodeId, complete: bool) -> Proof {
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss = 0;
    let mut all_proven = complete;
    let mut any_draw = false;
    for &child in &tree.node(id).children {
        match tree.proof_for_parent(id, child) {
            Proof::Win(n) => fastest_win = Some(fastest_win.map_or(n + 1, |w| w.min(n + 1))),
            Proof::Loss(n) => slowest_loss = slowest_loss.max(n + 1),
            Proof::Draw => any_draw = true,
            Proof::Unknown => all_proven = false,
        }
    }
    match fastest_win {
        Some(n) => Proof::Win(n),
        None if all_proven && any_draw => Proof::Draw,
        None if all_proven => Proof::Loss(slowest_loss),
        None => Proof::Unknown,
    }
}

/// A chance node is proven when every outcome is expanded and all of them
/// are the same proven result (a mix has an exact expected value, but no
/// sure result, and stays open).
fn chance_proof(tree: &Tree, id: NodeId, complete: bool) -> Proof {
    if !complete {
        return Proof::Unknown;
    }
    let mut proofs = tree
        .node(id)
        .children
        .iter()
        .map(|&c| tree.proof_for_parent(id, c));
    let Some(first) = proofs.next() else {
        return Proof::Unknown;
    };
    let mut plies = 0;
    for proof in std::iter::once(first).chain(proofs) {
        match (first, proof) {
            (Proof::Win(_), Proof::Win(n)) | (Proof::Loss(_), Proof::Loss(n)) => {
                plies = plies.max(n + 1)
            }
            (Proof::Draw, Proof::Draw) => {}
            _ => return Proof::Unknown,
        }
    }
    match first {
        Proof::Win(_) => Proof::Win(plies),
        Proof::Loss(_) => Proof::Loss(plies),
        other => other,
    }
}

/// The order in which `id`'s children are played and reported: a proven
/// win first (the fastest), proven losses last (the slowest first), and
/// between them by visits (seed 003: by mean), ties by mean.
pub fn ranked_children(tree: &Tree, id: NodeId, style: Style) -> Vec<NodeId> {
    let key = |child: NodeId| {
        let c = tree.node(child);
        let mean = tree.mean_for_parent(id, child);
        let class = match tree.proof_for_parent(id, child) {
            Proof::Win(n) => (2, -(n as i64)),
            Proof::Loss(n) => (0, n as i64),
            _ => (1, 0),
        };
        let primary = match style {
            Style::Widening => f64::from(c.visits),
            Style::Seed003 => mean,
        };
        (class, primary, mean)
    };
    let mut children = tree.node(id).children.clone();
    children.sort_by(|&a, &b| {
        let (ka, kb) = (key(a), key(b));
        kb.0.cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(kb.2.total_cmp(&ka.2))
    });
    children
}

#[cfg(test)]
mod tests {
    use super::super::tree::{Node, NO_NODE};
    use super::*;

    fn decision(side: u32) -> Node {
        let mut n = Node::new(0, 0, NO_NODE, side, NodeKind::Decision);
        n.pending = Some(Vec::new());
        n
    }

    #[test]
    fn seed003s_formula_with_its_constant() {
        // Q/N + sqrt(2 ln N_parent / N): Q = 3, N = 4, parent 20.
        let expected = 3.0 / 4.0 + (2.0 * 20f64.ln() / 4.0).sqrt();
        assert!((seed003_uct(0.75, 4, 20, SEED003_EXPLORATION) - expected).abs() < 1e-12);
        assert_eq!(SEED003_EXPLORATION, 1.0);
        // Less visited children get the larger bonus.
        assert!(seed003_uct(0.0, 1, 20, 1.0) > seed003_uct(0.0, 2, 20, 1.0));
    }

    #[test]
    fn seed003_expands_every_child_before_revisiting() {
        let mut tree = Tree::with_root(decision(0));
        tree.node_mut(0).move_count = 3;
        tree.node_mut(0).pending = Some(vec![(1, 0), (2, 0)]);
        let mut child = decision(1);
        child.parent = 0;
        child.visits = 1;
        child.value_sum = -1.0;
        tree.add_child(0, child);
        tree.node_mut(0).visits = 100;
        assert_eq!(
            decide(&tree, 0, Style::Seed003, Shape::default(), false),
            Step::Expand
        );
        // The widening style keeps to its width, 1 + sqrt(N) children: one
        // child is all a node of no visits may have, two at one visit.
        tree.node_mut(0).visits = 0;
        assert_eq!(
            decide(&tree, 0, Style::Widening, Shape::default(), false),
            Step::Descend(1)
        );
        tree.node_mut(0).visits = 1;
        assert_eq!(
            decide(&tree, 0, Style::Widening, Shape::default(), false),
            Step::Expand
        );
        assert_eq!(
            decide(&tree, 0, Style::Widening, Shape::default(), true),
            Step::Descend(1),
            "a full tree goes down instead"
        );
        assert_eq!(widening_width(1, WIDENING_FACTOR), 2);
        assert_eq!(widening_width(3, WIDENING_FACTOR), 2);
        assert_eq!(widening_width(4, WIDENING_FACTOR), 3);
    }

    #[test]
    fn a_proven_win_rises_as_a_win_and_a_loss_needs_every_move() {
        // root (side 0) with two moves; child a (side 1) has one move to
        // a terminal loss for side 0... i.e. a won position for side 1.
        let mut tree = Tree::with_root(decision(0));
        tree.node_mut(0).move_count = 2;
        let mut a = decision(1);
        a.parent = 0;
        a.move_count = 1;
        let a = tree.add_child(0, a);
        let mut end = Node::new(0, 0, a, 0, NodeKind::Terminal);
        end.proof = Proof::Loss(0);
        let end = tree.add_child(a, end);
        update_proofs(&mut tree, a);
        // Side 1 wins at a in one ply; the root, with a second move not
        // expanded, is not yet lost.
        assert_eq!(tree.node(a).proof, Proof::Win(1));
        assert_eq!(tree.node(0).proof, Proof::Unknown);
        let mut b = decision(1);
        b.parent = 0;
        b.proof = Proof::Win(3);
        tree.add_child(0, b);
        update_proofs(&mut tree, 0);
        assert_eq!(tree.node(0).proof, Proof::Loss(4), "the slowest loss");
        assert_eq!(tree.node(end).mean(), -1.0);
        // A win anywhere below the root's side to move wins.
        let mut tree = Tree::with_root(decision(0));
        tree.node_mut(0).move_count = 5;
        let mut won = Node::new(0, 0, 0, 1, NodeKind::Terminal);
        won.proof = Proof::Loss(0);
        tree.add_child(0, won);
        update_proofs(&mut tree, 0);
        assert_eq!(tree.node(0).proof, Proof::Win(1));
    }

    #[test]
    fn the_played_move_is_the_most_visited_or_seed003s_best_mean() {
        let mut tree = Tree::with_root(decision(0));
        for (visits, sum) in [(10u32, 2.0f64), (30, -3.0), (5, -4.0)] {
            let mut c = decision(1);
            c.parent = 0;
            c.visits = visits;
            c.value_sum = sum;
            tree.add_child(0, c);
        }
        // Means for the root: -0.2, 0.1, 0.8.
        assert_eq!(ranked_children(&tree, 0, Style::Widening), vec![2, 1, 3]);
        assert_eq!(ranked_children(&tree, 0, Style::Seed003), vec![3, 2, 1]);
        tree.node_mut(1).proof = Proof::Win(2);
        assert_eq!(ranked_children(&tree, 0, Style::Widening)[2], 1);
    }
}
