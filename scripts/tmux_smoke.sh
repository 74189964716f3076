#!/usr/bin/env bash
# Open the workbench in a real terminal (tmux, 160x48) on the bundled sample, drive it with keys
# as a user would, capture the screen after each step and check what it shows.  Exit 0 when every
# check passes, 1 otherwise (with the captured screen on stderr).  CI runs it (.ci/run).
#
# usage: scripts/tmux_smoke.sh [KEY RESPONSE]     (corefwb must be on PATH)
set -uo pipefail
cd "$(dirname "$0")/.."

KEY=${1:-samples/gum/key.gum.conll}
RESPONSE=${2:-samples/gum/response.gum.conll}
SESSION=""
SCREEN=""
FAILED=0

command -v tmux >/dev/null || { echo "tmux_smoke: tmux not found" >&2; exit 1; }
command -v corefwb >/dev/null || { echo "tmux_smoke: corefwb not on PATH" >&2; exit 1; }

OPENED=()
cleanup() { for s in "${OPENED[@]}"; do tmux kill-session -t "$s" 2>/dev/null; done; true; }
trap cleanup EXIT

capture() { SCREEN=$(tmux capture-pane -p -t "$SESSION" 2>/dev/null || true); }

# wait_for TEXT [SECONDS]: poll the screen until TEXT appears.
wait_for() {
  local text=$1 limit=${2:-20} waited=0
  while [ "$waited" -lt $((limit * 10)) ]; do
    capture
    if grep -qF -- "$text" <<<"$SCREEN"; then return 0; fi
    sleep 0.1
    waited=$((waited + 1))
  done
  return 1
}

# wait_for_match REGEX [SECONDS]: poll the screen until a line matches REGEX (grep -E).
wait_for_match() {
  local pattern=$1 limit=${2:-20} waited=0
  while [ "$waited" -lt $((limit * 10)) ]; do
    capture
    if grep -qE -- "$pattern" <<<"$SCREEN"; then return 0; fi
    sleep 0.1
    waited=$((waited + 1))
  done
  return 1
}

check() {  # check NAME TEXT [SECONDS]
  if wait_for "$2" "${3:-10}"; then
    echo "ok   $1"
  else
    echo "FAIL $1: '$2' not on screen" >&2
    printf '%s\n' "$SCREEN" >&2
    FAILED=1
  fi
}

# open_session NAME COLUMNS ROWS ARGS...: corefwb ARGS in a new tmux session of that size, as a user over
# SSH has it (TERM; no NO_COLOR, so colours are on; no animations).  Its exit status is printed.
open_session() {
  local name="corefwb-smoke-$1-$$" columns=$2 rows=$3 args=""
  shift 3
  if [ $# -gt 0 ]; then args=$(printf " '%s'" "$@"); fi
  tmux new-session -d -s "$name" -x "$columns" -y "$rows" \
    "env TERM=xterm-256color TEXTUAL_ANIMATIONS=none corefwb$args; echo \"corefwb exited with status \$?\"; sleep 60"
  OPENED+=("$name")
}

# Every session opens now, so that each later one has loaded while the earlier ones are driven
# (their start-ups were most of the smoke's time, one after another).  Opening them all at once
# also keeps the tmux server alive throughout: a session ends only at cleanup (killing the last
# one stops the server, and a new session started while it shuts down fails).
CHEN=samples/chen-ng
open_session main 160 48 "$KEY" "$RESPONSE"
open_session small 100 30 "$KEY" "$RESPONSE"
open_session charts 100 30 $CHEN/key.conll $CHEN/response-a.conll $CHEN/response-b.conll $CHEN/response-c.conll \
  $CHEN/response-d.conll $CHEN/response-e.conll
open_session compare 160 48 samples/gum/key.gum.conll samples/gum/response.gum.conll samples/gum/response.ontonotes.conll
open_session sample 100 30  # no files: the bundled sample
SESSION="corefwb-smoke-main-$$"

check "first screen: documents, text, scores (the top of the list: worst CoNLL first)" "scores: GUM_news_korea" 30
check "scores computed" "scored with W = (1, 0.75, 0.5, 1)" 30
check "corpus CoNLL F1 in the status line" "corpus CoNLL F1" 5
check "bracketed, typed text" "[North Korea]N0/0" 5
check "error list" "errors (92/92)" 20
check "category x type counts" "SUB" 5

absent() {  # absent NAME TEXT: TEXT must not be on screen now (so a later check of it means a change)
  capture
  if grep -qF -- "$2" <<<"$SCREEN"; then
    echo "FAIL $1: '$2' already on screen" >&2
    FAILED=1
  else
    echo "ok   $1"
  fi
}

absent "no error selected yet" "by rule"
tmux send-keys -t "$SESSION" n
check "next error selected: its mention's type explained under the text" "by rule" 5

absent "chains view not shown yet" "key chains ("
tmux send-keys -t "$SESSION" F3
check "chains view" "key chains (" 5
tmux send-keys -t "$SESSION" F5
check "warnings view: its titled panel" "─ warnings (" 5
tmux send-keys -t "$SESSION" F2
check "back to text" "text: both" 5
tmux send-keys -t "$SESSION" F4
check "key mentions only" "text: key" 5

# Typing as a user does, each key once the screen shows the one before took effect (fixed pauses
# lost a key on a busy machine): focus the first weight box and clear it (again, should the clear
# have come before the focus), then type.
tmux send-keys -t "$SESSION" C-w
for _ in 1 2 3 4 5; do
  tmux send-keys -t "$SESSION" C-u
  if wait_for_match 'w_nam +w_nom' 2; then break; fi
done
tmux send-keys -t "$SESSION" 0
check "weight edit rescores" "scored with W = (0, 0.75, 0.5, 1)" 20

tmux send-keys -t "$SESSION" Escape
tmux send-keys -t "$SESSION" C-Down
check "switch document (the next in the list)" "GUM_bio_moreau  (2/2 by conll" 10

tmux send-keys -t "$SESSION" t
check "t: Kummerfeld & Klein's entity errors" "entity errors (" 30
check "t: their counts by type" "CONF" 5
tmux send-keys -t "$SESSION" t
check "t again: the per-mention list" "errors (" 5
tmux send-keys -t "$SESSION" F1
check "help screen: the legend of error categories, from any focus" "FN  false new" 5
tmux send-keys -t "$SESSION" Escape

tmux send-keys -t "$SESSION" C-q
check "ctrl+q quits cleanly" "corefwb exited with status 0" 10

# The smallest terminal the layout is designed for: every panel reachable, nothing cut.
SESSION="corefwb-smoke-small-$$"
check "100x30: the scores panel's one-scope header, F1 first" "metric           F     R     P" 30
check "100x30: the LMetrics on screen" "LCEAFe" 30
check "100x30: every error column" "impact" 20
absent "100x30: documents list starts hidden" "documents (2/2)"
tmux send-keys -t "$SESSION" F6
check "100x30: F6 shows the documents list" "documents (2/2)" 5
tmux send-keys -t "$SESSION" Escape
sleep 0.2
tmux send-keys -t "$SESSION" q
check "q quits when no box has focus" "corefwb exited with status 0" 10

# Several responses and the charts view: Chen & Ng's five responses, their Figure 3 in the terminal.
SESSION="corefwb-smoke-charts-$$"
check "several responses: compare mode, the second against the first (short names at 100 columns)" "ΔF = b - a" 30
absent "charts not shown yet" "1-5 = W1..W5"
tmux send-keys -t "$SESSION" F8
check "charts: Chen & Ng's sweep, a chart per LMetric" "LMUC: 1-5 = W1..W5, * = now; O = MUC" 30
check "charts: the responses named under the axes" "a = response-a" 10
tmux send-keys -t "$SESSION" Escape
check "charts closed: back to the text" "text: both" 5
tmux send-keys -t "$SESSION" F9
check "F9 compares the next system with the baseline" "ΔF = c - a" 10
tmux send-keys -t "$SESSION" C-q
check "ctrl+q quits from several responses" "corefwb exited with status 0" 10

# Compare mode on the GUM excerpt at 160 columns (the wide scores panel, with intervals): xrenner in GUM mode (the baseline) and in OntoNotes mode.
SESSION="corefwb-smoke-compare-$$"
check "compare mode: each system's column, the difference and its interval" "95% interval" 30
check "compare mode: ΔF of the compared system against the baseline" "ΔF = ontonotes - gum" 10
check "compare mode: the interval computed in a worker" "-28.77       [-32.07,-18.62]" 20
check "compare mode: the changes of each error listed" "fixed  new" 20
tmux send-keys -t "$SESSION" F9
check "F9 with two systems swaps them" "ΔF = gum - ontonotes" 10
tmux send-keys -t "$SESSION" c
check "c: only the errors the compared system fixed" "fix fixed" 10
tmux send-keys -t "$SESSION" F8
check "charts of the two systems" "LMUC: 1-5 = W1..W5, * = now; O = MUC" 30
tmux send-keys -t "$SESSION" Escape
tmux send-keys -t "$SESSION" C-q
check "ctrl+q quits from compare mode" "corefwb exited with status 0" 10

# The README's first command: corefwb alone opens the bundled sample.
SESSION="corefwb-smoke-sample-$$"
check "corefwb alone: the bundled sample" "GUM_news_korea" 30
check "corefwb alone: its scores" "scores: corpus (d: document)" 20
tmux send-keys -t "$SESSION" C-q
check "ctrl+q quits from the sample" "corefwb exited with status 0" 10

exit $FAILED
