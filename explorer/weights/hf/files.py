"""Every tensor of a Hugging Face folder by name: (sharded) safetensors read lazily, or PyTorch .bin files
loaded with ``weights_only`` (never unpickling Python objects); every problem is one ModelLoadError line."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import torch

from explorer.errors import ModelLoadError
from explorer.util.reading import MAX_JSON_BYTES, check_regular, is_regular, read_json
from explorer.weights.hf.safetensors_header import check_safetensors_header

# safetensors' names of the floating dtypes (the others are refused by check_weights when read)
SAFETENSORS_DTYPES = {"BF16": "bfloat16", "F16": "float16", "F32": "float32", "F64": "float64"}


class TensorFiles:
    """Every tensor of a folder by name, read lazily from (possibly sharded) safetensors or PyTorch files."""

    _PREFIXES = ("", "model.", "transformer.")

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._stack = ExitStack()
        self._handles: dict[Path, Any] = {}
        self._where: dict[str, Path] = {}
        self._torch: dict[str, torch.Tensor] | None = None
        self._scan()
        self._keys = frozenset(self._torch) if self._torch is not None else frozenset(self._where)

    def _scan(self) -> None:
        folder = self.folder
        index = folder / "model.safetensors.index.json"
        files: list[Path]
        if is_regular(index, ModelLoadError):
            weight_map = read_config_json(index).get("weight_map")
            if not isinstance(weight_map, dict):
                raise ModelLoadError(f"{index} has no weight_map")
            for key, fname in weight_map.items():
                # A shard is a file beside the index: a list, a path elsewhere (/etc/…, ../) is not one.
                if not isinstance(fname, str) or not fname or Path(fname).name != fname or fname in (".", ".."):
                    raise ModelLoadError(
                        f"{index.name}: weight_map[{str(key)[:60]!r}] must name a file in {folder.name}, got "
                        f"{str(fname)[:60]!r}"
                    )
                self._where[key] = folder / fname
            files = sorted(set(self._where.values()))
            for f in files:
                check_regular(f, ModelLoadError, missing=f"{index.name} names {f.name}, which is not in {folder}")
                check_safetensors_header(f)
            return
        files = sorted(folder.glob("*.safetensors"))
        if files:
            for f in files:
                check_regular(f, ModelLoadError)  # a FIFO here blocked the window's worker forever
                check_safetensors_header(f)  # every entry's dtype, shape and bytes, before the library maps it
                for key in self._open(f).keys():
                    self._where.setdefault(key, f)
            return
        bins = sorted(folder.glob("pytorch_model*.bin"))
        if bins:
            import pickle

            self._torch = {}
            for f in bins:
                check_regular(f, ModelLoadError)
                try:
                    try:
                        state = torch.load(f, map_location="cpu", weights_only=True, mmap=True)
                    except RuntimeError:  # the legacy (pre-zip) format cannot be memory-mapped
                        state = torch.load(f, map_location="cpu", weights_only=True)
                except pickle.UnpicklingError as exc:
                    if "Weights only load failed" in str(exc):
                        raise ModelLoadError(
                            f"{f.name} contains Python objects (pickle), which are never loaded; "
                            "use the model's .safetensors weights"
                        ) from None
                    raise ModelLoadError(f"cannot read {f.name} as a PyTorch checkpoint ({first_line(exc)})") from None
                except Exception as exc:  # zip and torch errors alike
                    raise ModelLoadError(f"cannot read {f.name} as a PyTorch checkpoint ({first_line(exc)})") from None
                if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
                    raise ModelLoadError(f"{f.name} does not hold a dictionary of tensors")
                self._torch.update(state)
            return
        raise ModelLoadError(f"{folder} has no *.safetensors (or pytorch_model.bin) weights")

    def _open(self, f: Path):
        if f not in self._handles:
            from safetensors import safe_open

            try:
                self._handles[f] = self._stack.enter_context(safe_open(str(f), framework="pt"))
            except Exception as exc:  # SafetensorError, OSError
                raise ModelLoadError(f"cannot read {f.name}: {first_line(exc)} (is the file complete?)") from None
        return self._handles[f]

    def keys(self) -> frozenset[str]:
        return self._keys

    def resolve(self, key: str) -> str | None:
        """The stored name of ``key``, allowing the 'model.' / 'transformer.' prefix of *ForCausalLM."""
        for prefix in self._PREFIXES:
            if prefix + key in self._keys:
                return prefix + key
        return None

    def shape(self, stored: str) -> tuple[int, ...]:
        if self._torch is not None:
            return tuple(self._torch[stored].shape)
        return tuple(self._open(self._where[stored]).get_slice(stored).get_shape())

    def dtype(self, stored: str) -> str:
        """The stored tensor's dtype as torch names it ("bfloat16", "float16", "float32", …), from the header."""
        if self._torch is not None:
            return str(self._torch[stored].dtype).removeprefix("torch.")
        kind = self._open(self._where[stored]).get_slice(stored).get_dtype()
        return SAFETENSORS_DTYPES.get(kind, kind.lower())

    def get(self, stored: str) -> torch.Tensor:
        if self._torch is not None:
            return self._torch[stored]
        f = self._where[stored]
        try:
            return self._open(f).get_tensor(stored)
        except Exception as exc:
            raise ModelLoadError(
                f"cannot read tensor {stored} from {f.name}: {first_line(exc)} (is the file complete?)"
            ) from None

    def close(self) -> None:
        self._stack.close()


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def read_config_json(path: Path) -> dict:
    data = read_json(path, ModelLoadError, MAX_JSON_BYTES)  # bounded; a FIFO, deep nesting or 5000 digits are one line
    if not isinstance(data, dict):
        raise ModelLoadError(f"{path} does not hold a JSON object")
    return data
