"""Othello rules for the referees in this folder (gtp_match.py,
nboard_match.py): an 8x8 board, legal moves, flips, passes, the end of the
game and its score, written independently of plyd's plugin so that a
referee can check both engines' moves against something plyd did not
write.

Squares are named as Othello programs write them: a file a-h (column from
the left) and a rank 1-8 (row from the top), `a1` the top-left corner.
Black (side 0) moves first; the start position has White on d4 and e5 and
Black on e4 and d5.
"""

BLACK, WHITE = 0, 1
EMPTY = -1
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def square_name(index):
    return "abcdefgh"[index % 8] + str(index // 8 + 1)


def parse_square(text):
    """`d3`/`D3` -> index, or None when the text is not a square."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        return None
    return (int(text[1]) - 1) * 8 + "abcdefgh".index(text[0])


def is_pass(text):
    return text.strip().lower() in ("pass", "pa", "ps", "--", "00", "@@", "0000")


class Board:
    def __init__(self):
        self.cells = [EMPTY] * 64
        self.cells[parse_square("d4")] = WHITE
        self.cells[parse_square("e5")] = WHITE
        self.cells[parse_square("e4")] = BLACK
        self.cells[parse_square("d5")] = BLACK
        self.to_move = BLACK
        self.moves = []  # square names and "pass", in order

    @classmethod
    def from_text(cls, text):
        """The board of a `squares side` text: 64 squares a1 first, row by
        row (`X` Black, `O` White, `-` empty), then `X` or `O` to move."""
        squares, side = text.split()
        board = cls()
        board.cells = [{"-": EMPTY, "X": BLACK, "O": WHITE}[c] for c in squares]
        board.to_move = BLACK if side == "X" else WHITE
        return board

    def copy(self):
        other = Board.__new__(Board)
        other.cells = list(self.cells)
        other.to_move = self.to_move
        other.moves = list(self.moves)
        return other

    def flips(self, index, side=None):
        side = self.to_move if side is None else side
        if self.cells[index] != EMPTY:
            return []
        row, col = divmod(index, 8)
        found = []
        for dr, dc in DIRECTIONS:
            r, c = row + dr, col + dc
            line = []
            while 0 <= r < 8 and 0 <= c < 8 and self.cells[r * 8 + c] == 1 - side:
                line.append(r * 8 + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and self.cells[r * 8 + c] == side:
                found.extend(line)
        return found

    def legal_moves(self, side=None):
        return [i for i in range(64) if self.flips(i, side)]

    def must_pass(self):
        return not self.legal_moves() and not self.game_over()

    def game_over(self):
        return not self.legal_moves(BLACK) and not self.legal_moves(WHITE)

    def play(self, move):
        """Play a square name or a pass; raise ValueError when illegal."""
        if is_pass(move):
            if self.legal_moves():
                raise ValueError(f"pass while {square_name(self.legal_moves()[0])} is legal")
            if self.game_over():
                raise ValueError("pass after the end of the game")
            self.moves.append("pass")
            self.to_move = 1 - self.to_move
            return
        index = parse_square(move)
        if index is None:
            raise ValueError(f"'{move}' is not a square")
        flipped = self.flips(index)
        if not flipped:
            raise ValueError(f"{square_name(index)} is not legal here")
        self.cells[index] = self.to_move
        for i in flipped:
            self.cells[i] = self.to_move
        self.moves.append(square_name(index))
        self.to_move = 1 - self.to_move

    def count(self, side):
        return self.cells.count(side)

    def final_margin(self):
        """Black's discs minus White's, the empty squares going to the
        winner (the rule of the world championships and of GTP's
        final_score in plyd)."""
        black, white = self.count(BLACK), self.count(WHITE)
        empty = 64 - black - white
        if black > white:
            black += empty
        elif white > black:
            white += empty
        return black - white

    def ggf_board(self):
        """GGF `BO[...]` contents: size, 64 squares row by row (`*` Black,
        `O` White, `-` empty) and the side to move, as the NBoard GUI
        writes them."""
        text = "".join("-*O"[c + 1] for c in self.cells)
        return f"8 {text} {'*O'[self.to_move]}"

    def show(self):
        rows = []
        for r in range(8):
            rows.append(f"{r + 1} " + " ".join(".XO"[c + 1] for c in self.cells[r * 8 : r * 8 + 8]))
        return "  a b c d e f g h\n" + "\n".join(rows)


def score_interval(points, games):
    """Score fraction and its 95% interval (normal approximation over the
    per-game points 1, 1/2, 0). Where every game had the same result the
    spread of the points is nil and says nothing: Wilson's score interval
    instead, as plyd's arena gives it (16 wins of 16: 0.806 to 1)."""
    if games == 0:
        return 0.0, 0.0, 0.0
    mean = sum(points) / games
    var = sum((p - mean) ** 2 for p in points) / max(1, games - 1)
    if var == 0:
        z2 = 1.96 ** 2
        centre = (mean + z2 / (2 * games)) / (1 + z2 / games)
        half = (1.96 / (1 + z2 / games)) * ((mean * (1 - mean) / games
                                              + z2 / (4 * games * games)) ** 0.5)
        return mean, max(0.0, centre - half), min(1.0, centre + half)
    half = 1.96 * (var / games) ** 0.5
    return mean, max(0.0, mean - half), min(1.0, mean + half)
