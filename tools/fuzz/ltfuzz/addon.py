"""A kernel add-on mode (--lagged, --memops, --reductions, --sweeps): its
blocks come from a random stream of its own, drawn in kernels.py's
kernel() after the kernel's own draws (the add-on's <prefix>_kernel()),
and at the end of f when no kernel drew one, so that every program of the
flag has at least one. A subclass names its prefix and its stream's
constants (seed * mul + add) and defines <prefix>_pick(force): the lines
of one block, or [] (never when force). Its own on_init, if any, replaces
the one made here."""
import random

from .mode import Mode


class KernelAddon(Mode):
    implies = ("kernels",)
    prefix = None   # the add-on's attribute prefix ("sw": sw_r, sw_count)
    stream = None   # (mul, add): its stream is Random(seed * mul + add)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        p, (mul, add) = cls.prefix, cls.stream

        def on_init(self):
            setattr(self, p + "_r", random.Random(self.seed * mul + add))
            setattr(self, p + "_count", 0)

        def on_finish(self):
            if getattr(self, p + "_count"):
                return []
            body = getattr(self, p + "_pick")(force=True)
            return ["  " + l for l in ["{"] + ["  " + l for l in body] + ["}"]]

        def kernel(self):
            """Lines for kernels.py's kernel() (after its own draws), or []."""
            return getattr(self, p + "_pick")(force=False)

        if "on_init" not in cls.__dict__:
            cls.on_init = on_init
        cls.on_finish = on_finish
        setattr(cls, p + "_kernel", kernel)
