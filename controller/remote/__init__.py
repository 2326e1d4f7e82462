"""Remote play: two tables, one game, over an MQTT broker (issue 26).

``lines``: journal lines as signed messages; ``sync``: the far table's lines applied once, in order, with the state
checked; ``presence``: the link's words on the OLED; ``link``: the MQTT client
(paho-mqtt, the optional dependency ``remote``; imported only when remote play is on).
"""
