"""Which report sections each trial record feeds.

A task family names its report sections in the run header
(``families: {name: {"report_sections": [...]}}``, written by the family registry in
``fixtures/``); a record belongs to its ``family``. So the reports never decide by a family's
name what to build: a new family that asks for ``table1`` gets the accuracy tables without an
edit here. Runs recorded before families named their sections (and merged runs whose sources
do not say) fall back to :data:`RECORDED_BEFORE_FAMILIES`.
"""

from __future__ import annotations

import pandas as pd

SECTIONS = ("table1", "transcription_f1", "figures", "pitch_tables", "mcq_tables", "controls",
            "confusion", "musepub_tables")
# what each family asked for when the header did not yet carry its sections
RECORDED_BEFORE_FAMILIES: dict[str, tuple[str, ...]] = {
    "core": ("table1", "transcription_f1", "figures", "controls", "confusion"),
    "pitch": ("pitch_tables", "controls"),
    "mcq": ("mcq_tables", "controls"),
}


def sections_by_family(header: dict) -> dict[str, tuple[str, ...]]:
    """Each family's report sections, from the run header (or a merged run's sources)."""
    named: dict[str, tuple[str, ...]] = {}
    for source in (header, *header.get("sources", ())):
        for family, entry in (source.get("families") or {}).items():
            named.setdefault(family, tuple(entry.get("report_sections", ())))
    return {**RECORDED_BEFORE_FAMILIES, **named}


def unbuilt_sections(by_family: dict[str, tuple[str, ...]]) -> list[str]:
    """Sections a family asked for that this eartest has no builder for (a family's own
    package may be newer than the reports): named in ``summary.json``, never silently lost."""
    return sorted({s for sections in by_family.values() for s in sections} - set(SECTIONS))


def records_for(df: pd.DataFrame, section: str, by_family: dict[str, tuple[str, ...]]
                ) -> pd.DataFrame:
    """The records whose family asked for ``section``."""
    if df.empty or "family" not in df.columns:
        return df.iloc[0:0]
    wanted = [family for family, sections in by_family.items() if section in sections]
    return df[df["family"].isin(wanted)]
