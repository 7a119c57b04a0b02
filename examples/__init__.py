"""The example battles, installed with regiment: ``regiment scenarios`` lists them and
``regiment play NAME`` plays one by its name (``mill_race``)."""
