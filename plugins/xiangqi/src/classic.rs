//! Placeholder.
use plyd_api::Evaluator;
use plyd_xiangqi_rules::board::{color_of, kind_of};
use plyd_xiangqi_rules::Xiangqi;

/// Material only.
pub struct Classic;

const VALUE: [i32; 8] = [0, 0, 200, 200, 400, 900, 450, 100];

impl Evaluator for Classic {
    type State = Xiangqi;
    const NAME: &'static str = "classic";
    const DESCRIPTION: &'static str = "material";
    const GAME: &'static str = "xiangqi";
    const SCORE_BOUND: i32 = 30000;
    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(Classic)
    }
    fn evaluate(&self, state: &Xiangqi) -> i32 {
        let p = state.position();
        let mut s = 0;
        for sq in 0..90 {
            let c = p.board[sq];
            if c != 0 {
                let v = VALUE[kind_of(c) as usize];
                s += if color_of(c) == p.side() { v } else { -v };
            }
        }
        s
    }
}
