"""`corrections backtest`, its pure part: what each past first analysis is scored against, the
model's answer as parsed, and the scores (the figures of a labeler's backtest).

Scored against **what the maintainers left on the issue**: the vocabulary labels the issue
carries now (its label events replayed), and the duplicate notices maintainers objected to on it.
A model's answer, scored as maintainers would have met it:

- precision, recall: per label L, tp / (tp + fp) and tp / (tp + fn), averaged over the labels
  that have a divisor (macro average, as "per label" reads);
- false_adds: of all labels the model proposed, the share maintainers did not leave;
- false_removes: of all labels maintainers left, the share the model did not propose;
- recurrences: the mistakes of the answer (a label proposed that maintainers did not leave:
  "removed L"; one left and not proposed: "added L"; an objected duplicate notice) that one of the
  issue's nearest corrected issues had as a correction (corrections/quality/recurrences.py):
  `given` when that issue's line was in the context of this `max_analyzed`, `not_given` when it
  was not; counted for both runs against the same context, so the run without it says how often
  the mistake comes back when the model is not told; `repeats` is the old name of `given`;
- unparsed: answers that held no analysis (never cached, never scored; counted by the run);
- objected_duplicates: the model named the issue that the real analysis named and maintainers
  objected to (where that verdict is not known, a notice is not counted);
- prompt_tokens: the mean prompt size, in tokens as `corrections prompt` counts them (o200k_base).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assistant.markers import payloads
from corrections.quality.recurrences import Decision, decisions
from corrections.render.model_answer import MAX_ANSWER_CHARS, AnswerError, chosen_labels, decode_answer
from corrections.rules.analysis_marker import MarkerError
from corrections.rules.markers import decode_payload
from corrections.rules.models import DuplicateOutcome, Issue, IssueCorrection, LabelChange
from corrections.rules.vocabulary import Vocabulary


@dataclass(frozen=True)
class Answer:
    """The labels a model proposed and its duplicate notice."""

    labels: tuple[str, ...] = ()
    duplicate_of: int | None = None


def parse_answer(text: str, issue: int) -> Answer:
    """The model's output on `issue`: the analysis marker it ends with (read by the marker's one
    schema), else its JSON answer, read by the one parser `corrections answer` reads it with
    (corrections/render/model_answer.py). Raises AnswerError when it is neither."""
    found = payloads(text[:MAX_ANSWER_CHARS], "analysis")
    if found:
        try:
            payload, _ = decode_payload(found[-1])
        except MarkerError as error:
            raise AnswerError(f"the model's analysis marker does not parse: {error}") from error
        duplicate = payload.duplicate_of if payload.duplicate_of != issue else None
        return Answer(labels=payload.labels, duplicate_of=duplicate)
    decoded = decode_answer(text, issue)
    return Answer(labels=decoded.labels, duplicate_of=decoded.duplicate_of)


def labels_left(issue: Issue, vocabulary: Vocabulary, duplicate_label: str) -> frozenset[str]:
    """The vocabulary labels the issue carries now, from its label events (the duplicate label aside)."""
    present: dict[str, bool] = {}
    for event in issue.events:
        if isinstance(event, LabelChange) and (name := vocabulary.canonical(event.label)) is not None:
            present[name] = event.kind == "labeled"
    skip = duplicate_label.strip().casefold()
    return frozenset(name for name, on in present.items() if on and name.casefold() != skip)


@dataclass(frozen=True)
class Truth:
    """What one past first analysis is scored against."""

    number: int
    labels: frozenset[str]  # what maintainers left
    objected: frozenset[int]  # duplicate notices maintainers objected to on this issue


def truth_of(
    issue: Issue, correction: IssueCorrection, vocabulary: Vocabulary, duplicate_label: str
) -> Truth:
    """The labels left and the objected notice (the rules' verdict on the real analysis's notice)."""
    duplicate = correction.duplicate
    objected = (
        frozenset({duplicate.of})
        if duplicate is not None and duplicate.outcome is DuplicateOutcome.OBJECTED
        else frozenset()
    )
    return Truth(issue.number, labels_left(issue, vocabulary, duplicate_label), objected)


def proposed(answer: Answer, vocabulary: Vocabulary, duplicate_label: str) -> frozenset[str]:
    """The answer's labels that `corrections answer` would apply (vocabulary labels, spelled as
    labels.md spells them), the duplicate label aside."""
    skip = duplicate_label.strip().casefold()
    names, _ = chosen_labels(answer.labels, vocabulary.names)
    return frozenset(name for name in names if name.casefold() != skip)


def mistakes(truth: Truth, labels: frozenset[str], answer: Answer) -> frozenset[Decision]:
    """The corrections maintainers would have made to the answer."""
    found = {Decision("removed", name) for name in labels - truth.labels}
    found |= {Decision("added", name) for name in truth.labels - labels}
    if answer.duplicate_of is not None and answer.duplicate_of in truth.objected:
        found.add(Decision("duplicate", str(answer.duplicate_of)))
    return frozenset(found)


@dataclass(frozen=True)
class Scored:
    """One answer against its truth, with what its similar earlier issues had as corrections
    (`similar`) and which of those the context had given (`given`), for recurrences."""

    truth: Truth
    labels: frozenset[str]
    answer: Answer
    given: frozenset[Decision]
    prompt_tokens: int
    similar: frozenset[Decision] = frozenset()


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _mean(values: Iterable[float]) -> float | None:
    found = list(values)
    return round(sum(found) / len(found), 4) if found else None


def scores(items: Sequence[Scored], unparsed: int = 0) -> dict[str, object]:
    """The figures of one run (with or without the context): the keys `--json` prints."""
    labels = sorted({name for item in items for name in item.labels | item.truth.labels})
    tp = {name: 0 for name in labels}
    fp = dict(tp)
    fn = dict(tp)
    given = not_given = objected = 0
    for item in items:
        for name in item.labels & item.truth.labels:
            tp[name] += 1
        for name in item.labels - item.truth.labels:
            fp[name] += 1
        for name in item.truth.labels - item.labels:
            fn[name] += 1
        wrong = mistakes(item.truth, item.labels, item.answer)
        recurring = wrong & item.similar
        given += len(recurring & item.given)
        not_given += len(recurring - item.given)
        objected += sum(1 for decision in wrong if decision.kind == "duplicate")
    all_tp, all_fp, all_fn = sum(tp.values()), sum(fp.values()), sum(fn.values())
    return {
        "precision": _mean(tp[n] / (tp[n] + fp[n]) for n in labels if tp[n] + fp[n]),
        "recall": _mean(tp[n] / (tp[n] + fn[n]) for n in labels if tp[n] + fn[n]),
        "false_adds": _share(all_fp, all_tp + all_fp),
        "false_removes": _share(all_fn, all_tp + all_fn),
        "repeats": given,
        "objected_duplicates": objected,
        "recurrences": {"given": given, "not_given": not_given},
        "unparsed": unparsed,
        "prompt_tokens": round(sum(item.prompt_tokens for item in items) / len(items)) if items else 0,
    }


def given_by(lines: Iterable[IssueCorrection]) -> frozenset[Decision]:
    """The corrections some lines hold (of a context: what it gave; of the similar issues: what
    can recur)."""
    return frozenset(decision for line in lines for decision in decisions(line))
