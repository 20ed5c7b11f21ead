"""``make bench`` and what it makes: ``run`` (the entry point, ``python -m
xobo_host.bench.run``), ``ai``, ``board`` and ``ladder`` (the benchmarks of the computer
opponents, the board's cycle and the strength ladder), ``strength`` (the long strength matches),
``results`` (their results files), ``figures`` (docs/figures.md made from them), ``uct`` and
``matchplay`` (the UCT yardstick and the match engines of ``xobo match``)."""
