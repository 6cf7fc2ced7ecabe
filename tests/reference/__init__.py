"""Independent reference implementations (rules oracle, naive solver, reference game) and the tests of the references themselves."""
