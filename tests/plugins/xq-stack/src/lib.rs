//! A test evaluator plugin for xiangqi that keeps a stack and checks it:
//! every position pushed is kept whole, and scoring the position on top
//! panics if the state handed over is not the one on top of the stack. A
//! search that makes a move without pushing it (or takes one back without
//! popping) is then caught at its next evaluation. The score is the
//! material count, for the side to move.

use plyd_api::{Evaluator, Incremental, Move};
use plyd_xiangqi_rules::board::{color_of, kind_of};
use plyd_xiangqi_rules::{Xiangqi, STATE_LAYOUT};

/// The material-count evaluator with a checking stack.
pub struct StackCheck;

/// Material by piece kind; the general counts nothing.
const VALUES: [i32; 8] = [0, 0, 2, 2, 4, 9, 5, 1];

fn material(state: &Xiangqi) -> i32 {
    let position = state.position();
    let side = usize::from(position.side);
    position
        .board
        .iter()
        .filter(|&&piece| piece != 0)
        .map(|&piece| {
            let value = VALUES[usize::from(kind_of(piece))];
            if color_of(piece) == side {
                value
            } else {
                -value
            }
        })
        .sum()
}

impl Evaluator for StackCheck {
    type State = Xiangqi;
    const NAME: &'static str = "stackcheck";
    const DESCRIPTION: &'static str = "material, with a stack that checks it follows the search";
    const GAME: &'static str = "xiangqi";
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    const SCORE_BOUND: i32 = 100;

    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(StackCheck)
    }

    fn evaluate(&self, state: &Xiangqi) -> i32 {
        material(state)
    }
}

impl Incremental for StackCheck {
    /// The boards and sides of the positions on the stack, root first.
    type Stack = Vec<([u8; 90], u8)>;

    fn new_stack(&self) -> Self::Stack {
        Vec::new()
    }

    fn reset(&self, stack: &mut Self::Stack, state: &Xiangqi) {
        stack.clear();
        stack.push((state.position().board, state.position().side));
    }

    fn push(&self, stack: &mut Self::Stack, state: &Xiangqi, _mv: Move) {
        stack.push((state.position().board, state.position().side));
    }

    fn pop(&self, stack: &mut Self::Stack) {
        stack.pop();
    }

    fn evaluate_top(&self, stack: &mut Self::Stack, state: &Xiangqi) -> i32 {
        let here = (state.position().board, state.position().side);
        assert!(
            stack.last() == Some(&here),
            "the position scored is not the one on top of the stack ({} positions on it)",
            stack.len()
        );
        material(state)
    }
}

plyd_api::export_evaluator!(StackCheck);
