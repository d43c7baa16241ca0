"""The ranking finds an earlier issue however the new one is worded (`similarity`: BM25 on stems
fused with character n-grams, corrections/render/ngrams.py, through `nearest_first`, the one
ordering the prompt and the quality measure use).

Each pair below is a new issue and the earlier correction that teaches it, among distractors,
written as people write them. Whole-word BM25 (the ranking before) put 4 of the 9 first (those
sharing a whole word such as `CA` or `proxy`), and missed the compound (`Proxyserver`), the
inflection (`Timeouts`, `uploaded`) and the three written in CJK without spaces. What character
pieces cannot do is said too: a word of another language that shares no piece with the English
one (`Zeitüberschreitung`, `timeout`) is not found.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from corrections.render import ngrams
from corrections.render.nearest import nearest_first, similarity
from corrections.rules.models import IssueCorrection

DAY = datetime(2026, 11, 1, tzinfo=UTC)

# The history, newest first (as ReadOutcome.corrected gives it): one issue per subject.
HISTORY = {
    9: "Progress bar flickers in tmux\nThe bar redraws the whole line many times a second.",
    8: "Upload of a 20 GB file uses all memory\nThe multipart chunks seem to be kept in memory.",
    7: "SSL certificate verify failed with company CA\nOur endpoint uses a certificate signed by the company CA.",
    6: "Does not work behind corporate proxy\nI set HTTPS_PROXY but the tool connects directly.",
    5: "Paths with backslashes are not found on Windows\nOn Windows 10 the folder C:\\Users\\ana is missing.",
    4: "Timeout when uploading\nEach upload fails after exactly 60 seconds.",
    3: "README example uses an option that no longer exists\nThe documentation shows --dryrun.",
    2: "上传大文件经常超时\n网络慢的时候上传总是超时，重试也没有用。",
    1: "除外パターンが効かない\n--exclude でtmpファイルを指定してもバケットにアップロードされます。",
}


def line(number: int) -> IssueCorrection:
    return IssueCorrection(
        number=number,
        title=f"#{number}",
        labels_removed=("bug",),
        corrected_at=DAY - timedelta(days=10 - number),
    )


LINES = [line(number) for number in sorted(HISTORY, reverse=True)]


def first(query: str, texts: dict[int, str] | None = None) -> int:
    return nearest_first(LINES, HISTORY if texts is None else texts, query)[0].number


@pytest.mark.parametrize(
    ("query", "teacher"),
    [
        # German, Spanish, French: cognates and compounds share pieces with the English words.
        ("Zertifikatsfehler mit Firmen-CA\nDas Tool lehnt unser Zertifikat ab.", 7),
        ("Error de certificado con la CA de la empresa\nLa herramienta rechaza el certificado.", 7),
        ("Ne fonctionne pas derrière le proxy de l'entreprise\nL'outil se connecte en direct.", 6),
        ("Proxyserver der Firma wird ignoriert", 6),
        # Inflections: no whole word in common with the teacher.
        ("Timeouts on every uploaded folder", 4),
        # A stack trace: the identifiers are pieces of the words.
        ("OSError: [WinError 3] The system cannot find the path specified: 'C:\\\\Users\\\\li'", 5),
        # Chinese and Japanese written without spaces: a Latin word glued to CJK is its own run,
        # and CJK runs share pieces with CJK runs.
        ("Windows上路径找不到\n在Windows 11上同步时提示路径不存在。", 5),
        ("上传超时\n网络比较慢的时候，每次上传60秒后就超时失败了。", 2),
        ("--excludeが効かない\n隠しファイルがアップロードされます。", 1),
    ],
)
def test_the_teaching_correction_comes_first_however_the_issue_is_worded(query: str, teacher: int) -> None:
    assert first(query) == teacher


def test_a_word_that_shares_no_piece_is_not_found() -> None:
    """The limit of any lexical ranking: `Zeitüberschreitung` and `Hochladen` share no piece with
    `timeout` and `uploading`, so the line keeps its newest-first place."""
    texts = {4: HISTORY[4], 9: HISTORY[9]}
    assert (
        similarity([texts[4]], "Zeitüberschreitung beim Hochladen")[0]
        < similarity([texts[4]], "Timeouts beim Hochladen")[0]
    )
    assert similarity(["Timeout"], "Zeitüberschreitung") == [0.0]


def test_cjk_runs_are_cut_from_latin_letters_and_into_pieces() -> None:
    assert ngrams.runs("Windows上路径找不到, HTTPS_PROXY") == ["windows", "上路径找不到", "https", "proxy"]
    pieces = ngrams.features("上传大文件经常超时")
    assert "超时 " in pieces and "上传大文件经常超时" not in pieces  # never one token
    assert similarity(["上传大文件经常超时"], "上传超时")[0] > 0


def test_pieces_score_a_cosine_and_nothing_shared_is_zero() -> None:
    found = ngrams.scores(["certificate expired", "progress bar", ""], "certificate expired")
    assert found[0] == pytest.approx(1.0)
    assert found[1] == 0.0 and found[2] == 0.0
    assert ngrams.scores(["certificate"], "!!! ...") == [0.0]
    assert ngrams.scores([], "certificate") == []


def test_a_text_cut_once_scores_as_one_cut_again() -> None:
    """The pieces of each document are kept between calls (a replay ranks the same texts for each
    analysis): the scores are those of counting afresh, bit for bit, and scoring changes no kept count."""
    documents = list(HISTORY.values())
    query = "Zertifikat SSL Windows 上传超时 proxy timeouts"
    afresh = ngrams.scores(documents, query, cut=ngrams.pieces.__wrapped__)  # the path that keeps nothing
    kept = [dict(ngrams._counted(text)) for text in documents]
    assert ngrams.scores(documents, query) == afresh == ngrams.scores(documents, query)
    assert [dict(ngrams._counted(text)) for text in documents] == kept
    assert kept == [dict(ngrams.counts(text)) for text in documents]


def test_the_fusion_counts_each_ranking_where_it_found_something() -> None:
    """Whole words and pieces of words, each by rank (1 / (60 + rank)); a document neither finds
    scores 0.0, so it keeps its newest-first place."""
    documents = ["certificate expired", "certificates expiring soon", "progress bar"]
    found = similarity(documents, "certificate expired")
    assert found[0] == pytest.approx(2 / 61)  # first by both
    assert found[1] == pytest.approx(2 / 62)  # second by both (its stems are shared too)
    assert found[2] == 0.0
    assert similarity(["Zertifikat abgelaufen", "progress bar"], "certificate expired")[0] == pytest.approx(
        1 / 61
    )


def test_equal_scores_keep_newest_first() -> None:
    same = dict.fromkeys(HISTORY, "Upload timeout on a slow link")
    assert [c.number for c in nearest_first(LINES, same, "upload timeout")] == sorted(HISTORY, reverse=True)
    # And with nothing shared at all, the order is the order given.
    assert [c.number for c in nearest_first(LINES, HISTORY, "qqqq zzzz")] == sorted(HISTORY, reverse=True)


def test_the_same_texts_give_the_same_scores_in_every_process() -> None:
    """Bit for bit, whatever the process's hash seed (no set or hash order decides a sum)."""
    code = (
        "from corrections.render.nearest import similarity\n"
        "from tests.corrections.render.test_ngrams import HISTORY\n"
        "print(repr(similarity(list(HISTORY.values()), 'Zertifikat SSL Windows 上传超时 proxy timeouts')))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env(seed)
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1
    assert (
        repr(similarity(list(HISTORY.values()), "Zertifikat SSL Windows 上传超时 proxy timeouts")) + "\n"
        in outputs
    )


def _env(seed: str) -> dict[str, str]:
    return {**os.environ, "PYTHONHASHSEED": seed}
