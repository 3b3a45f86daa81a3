//! The examples' random numbers: xorshift64, seeded, so that a run can be
//! repeated.

use plyd_einstein_rules::board::Board;

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One of the steps the roll of `board` allows, each as likely.
    pub fn step(&mut self, board: &Board) -> u32 {
        let mut steps = [0u32; 6];
        let mut n = 0;
        board.for_each_step(board.roll, &mut |mv| {
            steps[n] = mv;
            n += 1;
        });
        steps[self.below(n)]
    }
}
