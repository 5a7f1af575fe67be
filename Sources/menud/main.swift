import MenuCore

print("menud: not yet")
