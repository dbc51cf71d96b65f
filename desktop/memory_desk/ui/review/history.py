"""The history's settings on the review page: on or off, how long and how much it keeps,
the space it uses, and a way to clear it.

The values are kept in app_settings (``[journal]``) and applied to the journal at once; the
page only hears ``limits_changed`` and ``clear_requested``.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QWidget,
)

from memory_desk.core.journal import JournalLimits
from memory_desk.ui import i18n
from memory_desk.ui.i18n import translate

_MB = 1024 * 1024


def size_text(size: int) -> str:
    """``1.2 MB`` as the locale writes sizes."""
    return i18n.locale().formattedDataSize(
        size, 1, QLocale.DataSizeFormat.DataSizeTraditionalFormat
    )


class HistorySettings(QGroupBox):
    """The journal's limits and its size (object names ``reviewHistoryEnabled``,
    ``reviewKeepDays``, ``reviewMaxMegabytes``, ``reviewHistorySize``, ``reviewClearHistory``).

    Signals:
        limits_changed(JournalLimits): the person changed a limit
        clear_requested(): the person confirmed clearing the history
    """

    limits_changed = Signal(object)
    clear_requested = Signal()

    def __init__(self, limits: JournalLimits, parent: QWidget | None = None) -> None:
        super().__init__(translate("ReviewPage", "History"), parent)
        self.setObjectName("reviewHistory")
        self.enabled = QCheckBox(
            translate("ReviewPage", "Keep a history of what the agents change"), self
        )
        self.enabled.setObjectName("reviewHistoryEnabled")
        self.enabled.setToolTip(
            translate(
                "ReviewPage",
                "Off: nothing new is recorded, and changes made meanwhile are not listed",
            )
        )
        self.keep_days = self._spin("reviewKeepDays", 1, 3650, translate("ReviewPage", " days"))
        self.keep_days.setToolTip(translate("ReviewPage", "Older changes and versions are dropped"))
        self.max_megabytes = self._spin(
            "reviewMaxMegabytes", 1, 100_000, translate("ReviewPage", " MB")
        )
        self.max_megabytes.setToolTip(
            translate(
                "ReviewPage",
                "Beyond this size the oldest versions are dropped first. Not counted: a small"
                " row per memory, kept to notice what changes",
            )
        )
        self.size = QLabel(self)
        self.size.setObjectName("reviewHistorySize")
        self.clear = QPushButton(translate("ReviewPage", "Clear history…"), self)
        self.clear.setObjectName("reviewClearHistory")
        self.clear.setToolTip(
            translate(
                "ReviewPage",
                "Forget every recorded change and old version; the next look starts afresh",
            )
        )
        form = QFormLayout(self)
        form.addRow(self.enabled)
        form.addRow(translate("ReviewPage", "Keep for"), self.keep_days)
        form.addRow(translate("ReviewPage", "At most"), self.max_megabytes)
        form.addRow(translate("ReviewPage", "Space used"), self.size)
        form.addRow(self.clear)
        self.set_limits(limits)
        self.show_size(None)
        self.enabled.toggled.connect(self._on_changed)
        self.keep_days.valueChanged.connect(self._on_changed)
        self.max_megabytes.valueChanged.connect(self._on_changed)
        self.clear.clicked.connect(self._on_clear)

    def _spin(self, name: str, low: int, high: int, suffix: str) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setObjectName(name)
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        spin.setKeyboardTracking(False)  # applied when the person is done typing
        return spin

    def set_limits(self, limits: JournalLimits) -> None:
        """Show these limits without announcing them."""
        for widget in (self.enabled, self.keep_days, self.max_megabytes):
            widget.blockSignals(True)
        self.enabled.setChecked(limits.enabled)
        self.keep_days.setValue(limits.max_age_days)
        self.max_megabytes.setValue(max(1, limits.max_bytes // _MB))
        for widget in (self.enabled, self.keep_days, self.max_megabytes):
            widget.blockSignals(False)
        self._follow_enabled()

    def limits(self) -> JournalLimits:
        return JournalLimits(
            enabled=self.enabled.isChecked(),
            max_age_days=self.keep_days.value(),
            max_bytes=self.max_megabytes.value() * _MB,
        )

    def show_size(self, size: int | None) -> None:
        if size is None:
            self.size.setText(translate("ReviewPage", "not known yet"))
        else:
            self.size.setText(size_text(size))

    def _follow_enabled(self) -> None:
        on = self.enabled.isChecked()
        self.keep_days.setEnabled(on)
        self.max_megabytes.setEnabled(on)

    def _on_changed(self, *_args: object) -> None:
        self._follow_enabled()
        self.limits_changed.emit(self.limits())

    def _on_clear(self) -> None:
        answer = QMessageBox.question(
            self,
            translate("ReviewPage", "Clear history"),
            translate(
                "ReviewPage",
                "Forget every change listed and every old version Memory Desk kept? Rolling back what is listed now will no longer be possible.",
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.clear_requested.emit()
