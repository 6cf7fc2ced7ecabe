"""Drop-in environments of other Dou Dizhu packages on fastdou (``fastdou.adapters.douzero``
and the others), each checked against the real package in the tests."""
