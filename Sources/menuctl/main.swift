print("menuctl: not yet")
