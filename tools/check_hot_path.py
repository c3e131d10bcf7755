"""Check that the hot C-level functions make no Python API call (what `cython -a` shows in yellow).

    python tools/check_hot_path.py

Cythonizes the native modules to a temporary folder and lists, for each cdef function that the
move generator and the search run, any CPython or Cython-runtime call in its C body. Exits 1 if
one is found. Functions that are allowed to touch Python (the board's API methods) are not listed.
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src" / "engine"
# The draughts family's hot functions, in both of its builds (64- and 128-bit boards).
DRAUGHTS = ["step", "nearest", "add_capture", "record_capture", "man_captures",
            "man_short_captures", "man_jump", "jumps_up", "jumps_down", "man_step_count", "king_captures", "continuing_landings", "flying_victim",
            "men_that_capture", "gen_captures", "gen_captures_of", "king_slide", "has_capture", "side_can_capture",
            "add_targets", "free_kings", "gen_quiet", "count_streak", "_streak_key",
            "generate", "count_moves", "capture_paths", "special_condition", "make", "make_plain",
            "make_full",
            "unmake", "compute_key", "counter_rule", "rule_draw", "rule_draw_full", "perft",
            "perft_board", "move_board", "evaluate",
            "_number_sum", "region_index", "man_attacked", "dense_terms", "lone_king_holds",
            "drawish_divisor", "tempo_count", "pattern_eval", "hand_eval",
            "network_eval", "net_refresh", "net_word", "net_bits",
            "_pow3", "_values_result", "_op_generate", "_op_generate_captures",
            "_op_generate_promotions", "offers_exchange", "_op_generate_exchanges",
            "save_counters", "count_plies",
            "_op_make", "_op_unmake", "_op_key", "_op_key_after", "key_after_move", "_op_evaluate", "_op_rule_end",
            "_op_draw_result", "has_capture",
            "captured_of", "set_captured", "history_slot", "gather_window"]
HOT = {
    "_draughts": DRAUGHTS + [
        # the endgame tables (_draughts_tables.pxi)
        "slice_size", "rank_set", "rank_free", "unrank_set", "set_pos", "pos_index", "decode",
        "decode_next", "decode_cache_init",
        "free_squares", "lookup", "predecessors", "first_pass", "settle_range", "finish_values",
        "stored_top", "stored_max_plies", "stored_code", "cas_value", "find_value",
        "stream_range", "probe_c", "expected_code", "verify_range",
        "any_code", "packed_code", "successor_code", "code_to_rule", "packed_get",
        "packed_read", "cache_new", "cache_free", "decode_block", "free_decoders"],
    "_draughts_wide": DRAUGHTS,
    "_stacks": ["add", "side_moves", "generate", "make", "unmake", "compute_key", "checkers",
                "rule_end", "mobility", "evaluate", "perft", "_op_generate", "_op_captures",
                "_op_make", "_op_unmake", "_op_evaluate", "_op_rule_end", "t_side_index",
                "t_side_decode", "t_slice_size", "t_index", "t_decode", "t_lookup", "t_solve",
                "t_build", "t_probe", "t_verify_range", "attacked_checkers", "features",
                "_op_features", "_game.linear_value"],
    "_superajedrez": ["slide", "rook_att", "bishop_att", "attackers", "bishop_colours",
                      "protected_squares", "king_square", "in_check", "safe_after", "add",
                      "captured_at", "generate", "has_legal_move", "put", "take", "set_reserve",
                      "make", "unmake", "compute_key", "insufficient_material", "rule_end",
                      "evaluate", "perft", "_op_generate", "_op_captures", "_op_has_quiet",
                      "_op_make", "_op_unmake", "_op_evaluate", "_op_rule_end", "_op_in_check",
                      "_op_capture_count", "_op_history_index", "_op_same_move", "_op_make_null",
                      "_op_unmake_null", "count_terms", "features", "_op_features",
                      "_game.linear_value"],
    "_superdimensiones": ["bit", "path_push", "path_pop", "path_record", "capture_found",
                          "jump_targets", "jump_dirs", "can_jump", "goes_on", "capture_extend",
                          "init_capsearch", "gen_captures", "keep_obligatory", "ally_reach",
                          "add_quiet", "gen_quiet", "has_move", "add_choices", "add_declines", "generate",
                          "compute_key", "finished_result", "team_score", "scored_result",
                          "end_by_rule", "pass_token", "make", "unmake", "game_over",
                          "side_to_move", "perft", "mobility", "subgame_eval", "result_value",
                          "evaluate", "end_score", "_op_generate", "_op_captures",
                          "_op_has_quiet", "_op_make", "_op_unmake", "_op_evaluate",
                          "_op_end_score", "_op_player", "_op_forced", "_op_is_capture",
                          "_op_capture_count", "_op_history_index", "_op_same_move",
                          "seen_by_player_2", "subgame_features", "pieces_on_board", "features",
                          "_op_features", "_game.linear_value"],
    "_game": ["_perft"],
    "_search": ["now", "side_in_check", "no_move_score", "score_to_tt", "score_from_tt", "tt_probe", "tt_store", "check_limits",
                "do_move", "undo_move", "is_repetition", "rule_score", "update_pv", "pick_next",
                "swap_moves", "qsearch", "negamax", "search_root", "node_end_score", "probe_score",
                "repetition_score", "same_player", "mover", "child", "tt_data", "total_nodes",
                "prepare_helper", "take_helper_iteration", "hand_over", "static_value", "tt_bucket",
                "busy_slot_of", "root_move_to_front", "iteration", "order_moves"],
}
ALLOWED = {"__Pyx_RefNannyDeclarations", "__Pyx_RefNannySetupContext", "__Pyx_RefNannyFinishContext"}


def main() -> int:
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for module, functions in HOT.items():
            c_file = Path(tmp) / f"{module}.c"
            subprocess.run([sys.executable, "-m", "cython", "-3", "-I", str(ROOT),
                            str(ROOT / f"{module}.pyx"), "-o", str(c_file)], check=True)
            source = c_file.read_text()
            for fn in functions:
                # "_game.name": an inline function of another module's .pxd, compiled here.
                owner, _, name = fn.rpartition(".")
                pattern = (r"static[^\n;]*__pyx_f_6engine_\d+" + re.escape(owner or module) + "_"
                           + re.escape(name) + r"\([^;{]*\)\s*\{(.*?)\n\}\n")
                match = re.search(pattern, source, re.S)
                if not match:
                    print(f"{module}.{fn}: not found (inlined away or renamed?)")
                    continue
                calls = set(re.findall(r"\b(Py[A-Z]\w+|__Pyx_\w+)", match.group(1))) - ALLOWED
                status = "clean" if not calls else "PYTHON: " + ", ".join(sorted(calls))
                bad += bool(calls)
                print(f"{module}.{fn}: {status}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
