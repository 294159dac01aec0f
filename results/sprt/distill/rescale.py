import re, sys
f = float(sys.argv[1])
for fn in sys.argv[2:]:
    t = open(fn).read()
    t = re.sub(r'\{ ([-+]?)(\d+\.\d+)/', lambda m: '{ %+.2f/' % (float(m.group(1) + m.group(2)) * f), t)
    open(fn.replace('lab-', 'scaled-'), 'w').write(t)
