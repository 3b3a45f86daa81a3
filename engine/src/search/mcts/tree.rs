//! The tree of a Monte-Carlo search: nodes in one arena, indexed by `u32`,
//! each knowing its parent, its children, its visits and value sum, and
//! what is proven of it; and the re-rooting that keeps a subtree for the
//! next search.
//!
//! A node's value sum is for **its own side to move**, as the plugin says
//! it. A parent reads a child's mean as is when the child's side is its
//! own and negated otherwise, so a pass, a roll that keeps the turn or a
//! turn of several moves needs nothing special (the same rule as the
//! alpha-beta search's scores).

use plyd_api::Move;

/// Index of a node in its [`Tree`].
pub type NodeId = u32;

/// No node (the root's parent).
pub const NO_NODE: NodeId = u32::MAX;

/// What a node is, once its position has been looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A player chooses a move here.
    Decision,
    /// A chance event (a roll) happens here; children are its outcomes.
    Chance,
    /// The game is over here.
    Terminal,
}

/// What is known for certain of a node, for its side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// Nothing yet.
    Unknown,
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// The game is drawn with best play.
    Draw,
}

impl Proof {
    /// The same proof seen by a side that is not the node's (only
    /// for two players: a win of one is the loss of the other).
    pub fn flipped(self) -> Proof {
        match self {
            Proof::Win(n) => Proof::Loss(n),
            Proof::Loss(n) => Proof::Win(n),
            other => other,
        }
    }

    /// The exact value of a proven node, for its side to move.
    pub fn value(self) -> Option<f64> {
        match self {
            Proof::Unknown => None,
            Proof::Win(_) => Some(1.0),
            Proof::Loss(_) => Some(-1.0),
            Proof::Draw => Some(0.0),
        }
    }
}

/// One node of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    /// The position's hash (for finding it again after moves are played).
    pub hash: u64,
    /// The move or chance outcome that leads here from the parent.
    pub mv: Move,
    /// The parent, [`NO_NODE`] at the root.
    pub parent: NodeId,
    /// The side to move here.
    pub side: u32,
    /// Decision, chance or terminal.
    pub kind: NodeKind,
    /// What is proven of the node.
    pub proof: Proof,
    /// The weight of the outcome that leads here, when the parent is a
    /// chance node (0 otherwise).
    pub weight: u32,
    /// Visits through this node, the expansion's own included.
    pub visits: u32,
    /// Sum of the values backed up through the node, for its side.
    pub value_sum: f64,
    /// The children expanded so far, in the order they were expanded.
    pub children: Vec<NodeId>,
    /// The moves (or outcomes with weights) not expanded yet, best first
    /// (see [`super::select`]); `None` until the node's moves are listed.
    pub pending: Option<Vec<(Move, u32)>>,
    /// The moves this node has in all (known once they are listed).
    pub move_count: u32,
    /// Whether `pending` is in the order of the plugin's hints (a node
    /// of few visits lists its moves in random order; see
    /// [`super::visit`]).
    pub hinted: bool,
}

impl Node {
    /// A node just reached, before its position is looked at.
    pub fn new(hash: u64, mv: Move, parent: NodeId, side: u32, kind: NodeKind) -> Self {
        Node {
            hash,
            mv,
            parent,
            side,
            kind,
            proof: Proof::Unknown,
            weight: 0,
            visits: 0,
            value_sum: 0.0,
            children: Vec::new(),
            pending: None,
            move_count: 0,
            hinted: false,
        }
    }

    /// The mean value for the node's side (0 before any visit).
    pub fn mean(&self) -> f64 {
        if let Some(v) = self.proof.value() {
            return v;
        }
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum / f64::from(self.visits)
        }
    }

    /// Whether every move of the node has a child.
    pub fn fully_expanded(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| p.is_empty())
    }
}

/// The nodes of one tree; index 0 is the root.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// The nodes, each after its parent.
    pub nodes: Vec<Node>,
    /// Whether the memory for more nodes could not be had: the tree is
    /// full below its node limit.
    capped: bool,
    /// Bytes the nodes' own lists (their moves pending, their children)
    /// took as they were made, and the count at which the memory the
    /// process may still take is looked at again.
    list_bytes: u64,
    next_look: u64,
}

/// What a tree leaves of the memory the process may take (under an
/// address-space limit, a control group's limit, or the machine's
/// available memory, the least of them), in MiB: for the search's other
/// needs, the plugins' among them. Taken to the last page, the next
/// allocation that cannot be done without (a plugin's, a move list's)
/// fails, and the process ends.
pub const TREE_MARGIN_MIB: u64 = 16;

/// Whether `bytes` more fit in what the process may still take, with
/// [`TREE_MARGIN_MIB`] left after them.
fn memory_for(bytes: u64) -> bool {
    crate::memory::short_for(bytes.div_ceil(1 << 20) + TREE_MARGIN_MIB).is_none()
}

/// The bytes of a node's own lists.
fn list_bytes_of(node: &Node) -> u64 {
    let pending = node.pending.as_ref().map_or(0, Vec::capacity);
    (pending * std::mem::size_of::<(Move, u32)>()
        + node.children.capacity() * std::mem::size_of::<NodeId>()) as u64
}

impl Tree {
    /// A tree of the root alone.
    pub fn with_root(root: Node) -> Self {
        Tree {
            nodes: vec![root],
            ..Tree::default()
        }
    }

    /// Whether one more node fits: fewer than `max` nodes, and room for
    /// it, the nodes' memory grown (doubled, up to `max`) where it is all
    /// taken. Memory the machine (or an address-space limit, as a judge
    /// sets) cannot give leaves the tree full where it is, for the rest
    /// of the search: a failed allocation would end the process.
    pub fn room(&mut self, max: usize) -> bool {
        let len = self.nodes.len();
        if len >= max || self.capped {
            return false;
        }
        if len < self.nodes.capacity() {
            return true;
        }
        let more = len.max(1024).min(max - len);
        let bytes = (more * std::mem::size_of::<Node>()) as u64;
        if memory_for(bytes) && self.nodes.try_reserve_exact(more).is_ok() {
            return true;
        }
        self.cap();
        false
    }

    /// Leave the tree full where it is for the rest of the search, said
    /// once.
    fn cap(&mut self) {
        if !self.capped {
            log::warn!(
                "not enough memory for more than {} tree nodes (their move lists took {} MiB): \
                 the tree grows no further this search (MctsTreeNodes sets fewer)",
                self.nodes.len(),
                self.list_bytes >> 20
            );
        }
        self.capped = true;
    }

    /// Whether memory has stopped the tree: no more nodes, and no more
    /// move lists (a node whose moves are not listed keeps its value).
    pub fn is_capped(&self) -> bool {
        self.capped
    }

    /// Count `bytes` more of the nodes' own lists, just made; `false`
    /// (the tree capped for the rest of the search) where what the process
    /// may still take has come down to [`TREE_MARGIN_MIB`]. Each node's
    /// lists are small, but millions of them take more than the nodes
    /// (the Amazons' and xiangqi's about half again as much): memory is
    /// looked at again each time the lists have taken a quarter of what
    /// was left at the last look (a quarter, as each search thread has a
    /// tree of its own).
    pub fn lists_grew(&mut self, bytes: u64) -> bool {
        self.lists_grew_with(bytes, crate::memory::available_mib)
    }

    /// [`Tree::lists_grew`] with the memory left, in MiB, told by `left`.
    fn lists_grew_with(&mut self, bytes: u64, left: impl FnOnce() -> Option<u64>) -> bool {
        self.list_bytes += bytes;
        if self.list_bytes >= self.next_look && !self.capped {
            match left() {
                None => self.next_look = u64::MAX,
                Some(left) if left <= TREE_MARGIN_MIB => self.cap(),
                Some(left) => {
                    self.next_look = self.list_bytes + (((left - TREE_MARGIN_MIB) << 20) / 4).max(1)
                }
            }
        }
        !self.capped
    }

    /// A new search may try again to grow the tree past where memory
    /// stopped it (memory is looked at again as its lists grow).
    pub fn uncap(&mut self) {
        self.capped = false;
        self.next_look = self.list_bytes;
    }

    /// The root's index.
    pub const ROOT: NodeId = 0;

    /// Node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Node `id`, to change.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is empty (it never is once it has a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Add `node` as the newest child of `parent`.
    pub fn add_child(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        let children = &mut self.nodes[parent as usize].children;
        let before = children.capacity();
        children.push(id);
        let grown = children.capacity() - before;
        if grown > 0 {
            self.lists_grew((grown * std::mem::size_of::<NodeId>()) as u64);
        }
        id
    }

    /// The mean of `child` seen from the side to move at `parent`.
    #[inline]
    pub fn mean_for_parent(&self, parent: NodeId, child: NodeId) -> f64 {
        let (p, c) = (self.node(parent), self.node(child));
        let mean = c.mean();
        if c.side == p.side {
            mean
        } else {
            -mean
        }
    }

    /// The proof of `child` seen from the side to move at `parent`.
    #[inline]
    pub fn proof_for_parent(&self, parent: NodeId, child: NodeId) -> Proof {
        let (p, c) = (self.node(parent), self.node(child));
        if c.side == p.side {
            c.proof
        } else {
            c.proof.flipped()
        }
    }

    /// The deepest node's distance from the root, in plies.
    pub fn depth(&self) -> u32 {
        // Nodes are only ever added after their parent, so one pass in
        // index order sees every parent's depth first.
        let mut depths = vec![0u32; self.nodes.len()];
        let mut deepest = 0;
        for (i, node) in self.nodes.iter().enumerate().skip(1) {
            let d = depths[node.parent as usize] + 1;
            depths[i] = d;
            deepest = deepest.max(d);
        }
        deepest
    }

    /// The node `plies` plies or fewer below the root whose hash is
    /// `hash` and whose side to move is `side`, nearest first.
    pub fn find(&self, hash: u64, side: u32, plies: u32) -> Option<NodeId> {
        let mut level = vec![Tree::ROOT];
        for _ in 0..=plies {
            if let Some(&hit) = level.iter().find(|&&id| {
                let n = self.node(id);
                n.hash == hash && n.side == side
            }) {
                return Some(hit);
            }
            level = level
                .iter()
                .flat_map(|&id| self.node(id).children.iter().copied())
                .collect();
        }
        None
    }

    /// A new tree made of the subtree under `id`, which becomes the root
    /// (with no parent and no incoming move); `None` where the memory for
    /// the copy cannot be had (under an address-space limit, beside the
    /// tree it is copied from).
    pub fn subtree(&self, id: NodeId) -> Option<Tree> {
        let (mut count, mut lists) = (0usize, 0u64);
        let mut stack = vec![id];
        while let Some(next) = stack.pop() {
            count += 1;
            lists += list_bytes_of(self.node(next));
            stack.extend_from_slice(&self.node(next).children);
        }
        drop(stack);
        // The nodes, their lists (copied with them) and the queue below.
        let bytes = (count * (std::mem::size_of::<Node>() + 16)) as u64 + lists;
        let mut nodes = Vec::new();
        if !memory_for(bytes) || nodes.try_reserve_exact(count).is_err() {
            log::warn!(
                "not enough memory to keep a tree of {count} nodes: the search starts afresh"
            );
            return None;
        }
        // The old index of each copied node's new parent, breadth first so
        // that parents keep coming before their children.
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((id, NO_NODE));
        while let Some((old, new_parent)) = queue.pop_front() {
            let new_id = nodes.len() as NodeId;
            let mut node = self.node(old).clone();
            node.parent = new_parent;
            let children = std::mem::take(&mut node.children);
            nodes.push(node);
            if new_parent != NO_NODE {
                let parent: &mut Node = &mut nodes[new_parent as usize];
                parent.children.push(new_id);
            }
            for child in children {
                queue.push_back((child, new_id));
            }
        }
        let root = &mut nodes[0];
        root.weight = 0;
        let list_bytes = nodes.iter().map(list_bytes_of).sum();
        Some(Tree {
            nodes,
            capped: false,
            list_bytes,
            // Memory is looked at as soon as the kept tree's lists grow.
            next_look: list_bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        // root(side 0) -> a(side 1) -> c(side 0)
        //              -> b(side 1)
        let mut t = Tree::with_root(Node::new(10, 0, NO_NODE, 0, NodeKind::Decision));
        let a = t.add_child(0, Node::new(11, 1, 0, 1, NodeKind::Decision));
        t.add_child(0, Node::new(12, 2, 0, 1, NodeKind::Decision));
        t.add_child(a, Node::new(13, 3, a, 0, NodeKind::Decision));
        t
    }

    /// The lists' memory is looked at when they have taken a quarter of
    /// what was left at the last look, and caps the tree once what is left
    /// comes down to the margin; a new search looks again.
    #[test]
    fn the_lists_cap_the_tree_as_memory_runs_out() {
        let mut t = tree();
        // As a new tree is: the first growth looks.
        t.next_look = t.list_bytes;
        let start = t.list_bytes;
        let mut looks = 0;
        let mut left = |mib: u64| {
            looks += 1;
            move || Some(mib)
        };
        // 16 MiB past the margin: the next look after 4 MiB more.
        assert!(t.lists_grew_with(1, left(TREE_MARGIN_MIB + 16)));
        assert_eq!(t.next_look, start + 1 + (4 << 20));
        assert!(t.lists_grew_with((4 << 20) - 1, || panic!("not looked at yet")));
        // At the margin: capped, said once, and the tree full.
        assert!(!t.lists_grew_with(1, left(TREE_MARGIN_MIB)));
        assert!(t.is_capped());
        assert!(!t.room(1_000_000));
        assert!(!t.lists_grew_with(1 << 30, || panic!("capped: not looked at")));
        t.uncap();
        assert!(t.lists_grew_with(1, left(TREE_MARGIN_MIB + 100)));
        assert!(t.room(1_000_000));
        // No limit known: never looked at again.
        let mut free = tree();
        free.next_look = free.list_bytes;
        assert!(free.lists_grew_with(1, || None));
        assert!(free.lists_grew_with(u64::MAX / 2, || panic!("no limit")));
        assert_eq!(looks, 3);
    }

    #[test]
    fn a_node_two_plies_down_is_found_and_becomes_the_root() {
        let t = tree();
        assert_eq!(t.find(13, 0, 2), Some(3));
        assert_eq!(t.find(13, 1, 2), None, "the side must match too");
        assert_eq!(t.find(13, 0, 1), None, "too deep for one ply");
        let sub = t.subtree(1).unwrap();
        assert_eq!(sub.len(), 2);
        assert_eq!(sub.node(0).hash, 11);
        assert_eq!(sub.node(0).parent, NO_NODE);
        assert_eq!(sub.node(0).children, vec![1]);
        assert_eq!(sub.node(1).hash, 13);
        assert_eq!(sub.node(1).parent, 0);
        assert_eq!(t.depth(), 2);
    }

    #[test]
    fn a_child_is_read_from_its_parents_side() {
        let mut t = tree();
        t.node_mut(1).visits = 2;
        t.node_mut(1).value_sum = 1.0;
        assert_eq!(t.mean_for_parent(0, 1), -0.5);
        t.node_mut(3).proof = Proof::Loss(1);
        assert_eq!(t.proof_for_parent(1, 3), Proof::Win(1));
        assert_eq!(t.node(3).mean(), -1.0);
    }
}
