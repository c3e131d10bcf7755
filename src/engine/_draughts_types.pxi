# The draughts family's C types, shared by the two builds of its code: `_draughts` (boards of up
# to 64 bits: every variant on 8x8 and 10x10) and `_draughts_wide` (up to 128: Canadian 12x12).
# The including .pxd defines `Bits` (a set of squares, one bit each), NBITS (its width) and
# `Move`, whose captured set is stored to fit the search's 16-byte moves.

cdef enum:
    MAX_MOVES = 512        # per position; generators never write past it
    NDIR = 12              # see geometry.DIRECTIONS
    MAX_VARIANTS = 24
    MAX_REGIONS = 32       # learned evaluation: regions of the board (see patterns.py)
    REGION_SQUARES = 8     # squares of a region: 3^8 = 6561 contents
    N_DENSE = 12           # learned evaluation: whole-board terms (patterns.DENSE_TERMS)
    NET_MAX_H = 512        # network evaluation: neurons of the first layer, a view (network.py)
    NET_MAX_H2 = 64        # ... of the second layer
    MAX_RANKS = 12         # rows of the largest board (Canadian 12x12)

# Capture precedence / promotion in capture (mirrors variants.py).
cdef enum:
    PREC_FREE = 0
    PREC_QUANTITY = 1
    PREC_QUALITY = 2
    PREC_KING_FIRST = 3
    PREC_ITALIAN = 4
    PREC_VALUE = 5
    PROMO_STOP = 0
    PROMO_CONTINUE = 1
    PROMO_KING = 2
    WIN_NORMAL = 0           # who cannot move loses
    WIN_LOSING = 1           # who cannot move wins (antidraughts)
    WIN_FIRST_KING = 2       # the first king wins (breakthrough)

# Why a game ended (mirrors types.Termination).
cdef enum:
    END_NONE = 0
    END_NO_PIECES = 1
    END_NO_MOVES = 2
    END_REPETITION = 3
    END_KING_MOVES = 4       # plies without capture and without man move
    END_CAPTURE_LIMIT = 5    # plies without capture
    END_SIXTEEN_MOVES = 6
    END_FIVE_MOVES = 7
    END_FORZOSA = 8
    END_SAQUE = 9
    END_LONE_PIECE = 10      # Turkish: one piece against two or more with a king: a loss
    END_ONE_AGAINST_ONE = 11 # Turkish: one piece each and no capture: a draw
    END_FIRST_KING = 17      # breakthrough: the other side has crowned a king: a loss
    END_SEVEN_MOVES = 19     # Frisian: two kings against one not won within 7 moves each

ctypedef struct Rules:
    int nsq
    Bits valid
    Bits promo[2]             # squares where each side's men are crowned
    int lsh[NDIR]
    int rsh[NDIR]
    int delta[NDIR]           # signed bit offset of one step
    int up[NDIR]              # 1 when a step raises the bit index
    int opposite[NDIR]
    Bits canstep[NDIR]
    Bits ray[NDIR][NBITS]
    Bits next1[NDIR][NBITS]   # the square one step from each square in a direction (0: none)
    Bits next2[NDIR][NBITS]   # and two steps: where a short jump over next1 lands
    Bits man_reach[2][NBITS]  # next1 along each of a side's man capture directions
    Bits king_reach[NBITS]    # the squares a king could take from each square, on an empty board
    # Layouts with ghost bits (geometry.py), where a diagonal step off the board never lands on
    # a square, so the four diagonals are plain shifts by +-diag_a and +-diag_b, with no mask.
    # man_cap_shifts: 4 when men capture along all four diagonals there, 2 when along their
    # two forward ones, else 0 (also where a capture may not turn back: that walks the
    # directions); man_move_shifts: 1 when men move along their two forward diagonals there.
    # forward_up[side]: a man's forward step raises the bit index.
    int man_cap_shifts
    # 1 where men's captures are plain short jumps on such a layout, whose pieces stay on the
    # board until the capture ends and whose men are not crowned mid-capture: the generator's
    # fast path (man_short_captures).
    int short_man_jumps
    int man_move_shifts
    int forward_up[2]
    int diag_a
    int diag_b
    int man_move[2][4]
    int n_man_move
    int man_cap[2][8]
    int n_man_cap
    int king_dir[8]           # a king's quiet moves
    int n_king_dir
    int king_cap[8]           # a king's captures (Frisian: the orthogonals too)
    int n_king_cap
    int flying
    int immediate             # pieces taken leave the board at once
    int no_turn_back          # a capture may not reverse its direction (Turkish)
    int land_behind           # a flying king lands right behind the piece it takes (Thai)
    int precedence
    # 1 where a flying king's capture needs none of immediate, land_behind, track and
    # must_go_on: its victims stay until the end, it may land anywhere beyond each, no piece is
    # tracked and no landing square is forced (plain_king_captures, king_captures' fast path).
    int plain_flying
    int promo_in_capture
    int win_rule
    int killer                # Killer: a king's capture ending on a king stops right behind it
    Bits kings_immune         # all ones in Italian draughts, where a man never takes a king
    int track                 # Killer or Italian: captures keep their last piece and first king
    int must_go_on            # flying kings under free choice must land where they can go on
    int lateral               # Chapinas' sideways king step on the far row
    int king_streak           # Frisian: quiet moves one king may make in a row while its side
                              # has men (0: no limit)
    int frisian_endings       # Frisian: 2 kings v 1 in 7 moves each; 1 king v 1: drawn
    int numbered
    int king_moves_limit
    int capture_limit
    int fmjd_endgames
    int forzosa
    int saque
    int turkish_endings       # lone-piece loss and one-against-one draw (RULES.md §5.1)
    int plain_make            # none of numbered, king_streak, forzosa, saque: make_plain
    Bits main_diag
    Bits saque_man[2]         # the strong side's man square in Saque de peon, per strong side
    Bits saque_other_man[2]   # the weak side's man square
    int value_tiebreak
    # Evaluation tables and weights (see evaluation.py).
    Bits rank_mask[2][MAX_RANKS] # squares at each distance from the side's own back row
    # The rows a man on each square still has to go, in binary: bit k of that count is set on
    # the squares of tempo_plane[side][k] (11 rows at most: four planes), so that the tempo
    # count is four bit counts per side rather than one per row.
    Bits tempo_plane[2][4]
    Bits centre
    Bits wing[2]              # left and right halves of the board
    Bits long_diagonal        # the corner-to-corner diagonals that are playable squares
    Bits cone[2][NBITS]       # squares a man's forward moves can reach
    int rows_to_go[2][NBITS]
    Bits near_crowning[2]     # men with 1 to 3 rows to go
    int w_man
    int w_king
    int w_tempo
    int w_back_rank
    int w_centre
    int w_balance
    int w_king_mobility
    int w_runaway[4]
    int lone_king_draw
    int w_piece_numbers
    # Learned pattern evaluation (patterns.py); pat_n == 0: the hand-set terms above are used.
    int pat_n                                  # regions
    int pat_len[MAX_REGIONS]
    int pat_sq[MAX_REGIONS][REGION_SQUARES]    # White's view of the region
    int pat_rot[MAX_REGIONS][REGION_SQUARES]   # the same squares turned 180 degrees: Black's view
    int pat_offset[MAX_REGIONS]                # the region's first weight
    int pat_kings                              # the first weight of the king-square table
    int pat_king_sq[2][NBITS]                     # a king's row in that table: [side][bit], the
                                               # square as that side sees the board
    int pat_dense                              # the first weight of the whole-board terms
    int pat_drawish                            # scale down drawish material (patterns.py)
    int pat_phase_tempo                        # phase: 0 pieces on the board, 1 tempo (the
                                               # rows the men still have to go, Scan's pip)
    int pat_phase_start                        # the phase's value at the start (opening)
    int ranks                                  # rows of the board
    const short* pat_w                         # [weights][2]: opening, ending; 1/16 centi-men
    # A region's index from the bitboards in a few instructions: the men on its squares,
    # moved down to bit 0 (shift) and masked, multiplied by a magic number gather into the top
    # byte, which a table turns into the base-3 index (the sum of 3^k over the region's occupied
    # squares k). [view]: 0 White's squares (pat_sq), 1 Black's (pat_rot). Views whose squares
    # lie alike from their lowest one (every region of a layout of patterns.py: translated
    # windows) share a magic number and one table of pat_tables, so the evaluation reads 1 kB
    # of tables rather than 512 bytes a view (_share_tables).
    u64 pat_mask[MAX_REGIONS][2]
    u64 pat_magic[MAX_REGIONS][2]
    int pat_shift[MAX_REGIONS][2]              # the region's lowest square bit
    int pat_tab[MAX_REGIONS][2]                # its table: a row of pat_tables
    unsigned short pat_tables[2 * MAX_REGIONS][256]
    # Black's view of region pat_partner[r] covers White's view of r, and is gathered by r's
    # magic: one gather of the men serves both (set by _pair_views when every region has one).
    int pat_partner[MAX_REGIONS]
    int pat_partner_offset[MAX_REGIONS]        # pat_offset[pat_partner[r]]
    # The paired loop runs (pattern_eval): every region has a partner, all White's views share
    # one mask, magic number and table and all Black's views another (the translated windows
    # of patterns.py's layouts), and the weights can be packed (pat_packed). Otherwise the
    # loop that gathers and reads view by view runs.
    int pat_shared
    # The region rows' weights, each pair in one word: opening << pat_pack_shift plus ending,
    # so that the paired loop adds one word a view. The two sums come apart exactly because the
    # endings' sum over every view stays inside 2^(pat_pack_shift - 1) (_pack_shift; weights
    # that cannot be packed so leave pat_shared 0).
    const int32_t* pat_packed
    int pat_pack_shift
    # Learned network (network.py, _draughts_network.pxi); net_h == 0: none, the patterns or
    # the hand-set terms play. Inputs: a piece on a square, of 4 kinds (own man, own king, the
    # other side's man and king) as one side sees the board; two views, the side to move's and
    # the other's, through the same first layer.
    int net_h                                  # neurons of the first layer, a view
    int net_h2                                 # of the second layer
    int net_feat[4][2][NBITS]                  # the input of a piece of plane [4] on a bit, as
                                               # view [2] sees it (NET_KIND x squares + square)
    int net_squares                            # playable squares: inputs = 4 * net_squares
    const int16_t* net_w1                      # [inputs][net_h]
    const int16_t* net_b1                      # [net_h]
    const int8_t* net_w2                       # [groups of 4 inputs][net_h2][4]: layer 2
    const int32_t* net_b2                      # [net_h2]
    const int16_t* net_w3                      # [net_h2]
    int32_t net_b3
    int net_centi                              # centi-men a unit of the output (a logit) is
    u64 net_generation                         # counts installs: threads' cached sums expire
    int net_over_patterns                      # the network corrects the patterns' value

ctypedef struct Pos:
    Bits pieces[2]            # [0] White, [1] Black
    Bits kings
    u64 key
    int stm
    int reversible            # plies since the last capture or man move
    int since_capture
    int since_material        # plies since the last capture or promotion
    int special               # Forzosa / Saque counter in plies, -1 when not running
    int8_t num[NBITS]         # Chapinas piece numbers (stale where no piece stands)
    int8_t wolf[2]            # Frisian: the king that made each side's last quiet moves
    int8_t streak[2]          # and how many in a row (0: none counted)

ctypedef struct Undo:
    u64 key
    Bits captured_kings
    int reversible
    int since_capture
    int since_material
    int special
    int8_t num_to
    int8_t wolf[2]
    int8_t streak[2]
