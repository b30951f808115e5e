def test_import():
    import games.engines.silkroad as sr
    assert sr.ENGINE.slug == "silkroad"
