"""The table's web page: a view of the table state for the phones and computers on the local network.

``view.WebView`` runs the server on its own thread; ``server`` has the routes, ``public`` what the page may
show of the state (and the keys of its JSON), ``board`` the board drawn under the pieces, ``journals`` the
games page, ``codes`` the seat codes; the page's own files are in ``static/``. Nothing here is imported
unless the page is on (``play --web``, ``demo --web``, a profile's ``[web] enabled``), and aiohttp is
imported by ``server`` and ``view`` alone.
"""
