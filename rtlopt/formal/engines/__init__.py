"""The proof engines, one file each, one entry point each: ``run(job, *, share, ...)``.

An engine returns a :class:`~rtlopt.results.FormalResult` when it decides (or, for the SAT
miter, always) and None when it cannot; it never imports :mod:`rtlopt.formal.check`, which
alone puts engines in order and splits the time.

- :mod:`.sat`: Yosys's SAT miter (proof, induction, bounded check).
- :mod:`.structural`: Yosys's ``equiv_*`` structural matching.
- :mod:`.abc`: ABC on the AIGER miter (``&cec``, ``dprove``, ``pdr``, ``bmc3``), both power-up
  models.
- :mod:`.paired`: ABC with registers paired by behaviour from free power-up values.
- :mod:`.lcorr`: ABC's latch correspondence, then ``dprove``, on the exact miter.
- :mod:`.powerup`: the outputs the reference leaves x, from a shared power-up state.
"""
