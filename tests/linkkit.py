"""The links of an HTML page, for the tests that follow the docs' links (in the repository:
tests/test_docs_links.py; as the simulator serves them: tests/sim/test_docs_links.py)."""

from html.parser import HTMLParser


class Links(HTMLParser):
    """The links (a href, img src) and the element ids of an HTML text."""

    def __init__(self):
        HTMLParser.__init__(self)
        self.links = []
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag == "img" and attrs.get("src"):
            self.links.append(attrs["src"])
