"""A luma ``dummy`` display (mode "1") that keeps the last frame and saves each new one as PNG when asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from luma.core.device import dummy


class FrameKeeper(dummy):  # type: ignore[misc]
    def __init__(self, width: int = 128, height: int = 64, frames_dir: Path | None = None) -> None:
        super().__init__(width=width, height=height, mode="1")
        self.persist = True  # as the real panel: the last screen (the result, "Stopped") stays at exit
        self.frames_dir = frames_dir
        self.count = 0
        if frames_dir is not None:
            frames_dir.mkdir(parents=True, exist_ok=True)

    def display(self, image: Any) -> None:
        super().display(image)
        self.count += 1
        if self.frames_dir is not None:
            self.image.save(self.frames_dir / f"frame-{self.count:05d}.png")
