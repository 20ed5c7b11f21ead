"""The Pico: ``deploy`` (compile the firmware to .mpy, find a Pico, copy with mpremote;
``xobo flash``), ``firmware`` (the MicroPython image with the board frozen in; ``make
firmware``) and ``picocheck`` (the firmware on an emulated Pico; ``make pico-check``)."""
