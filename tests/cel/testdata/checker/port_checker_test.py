#!/usr/bin/env python3
"""Ports cel-go v0.29.2 checker/checker_test.go (TestCheck) to checker_test_cases.inc.

  port_checker_test.py > ../../checker_test_cases.inc

Keeps the cases whose environment is expressible in checker_test.cc (variables
of CEL types, the "default" test environment, CrossTypeNumericComparisons
options) and that use no container, custom function or proto test message.
"""
import re,subprocess,sys
MODCACHE=subprocess.run(['go','env','GOMODCACHE'],capture_output=True,text=True).stdout.strip()
src=open(MODCACHE+'/github.com/google/cel-go@v0.29.2/checker/checker_test.go').read()
start=src.index('func testCases(t testing.TB) []testInfo {')
end=src.index('\n\t}\n}\n',start)
body=src[start:end]
lines=body.split('\n')
cases=[];cur=None;depth=0
for ln in lines[3:]:
    if cur is None:
        if ln=='\t\t{': cur=[]
        continue
    if ln=='\t\t},': cases.append('\n'.join(cur)); cur=None; continue
    cur.append(ln)
print(len(cases),file=sys.stderr)
def gostr(s,i):
    # parse Go string literal starting at s[i]
    if s[i]=='`':
        j=s.index('`',i+1); return s[i+1:j], j+1
    assert s[i]=='"'
    j=i+1; out=''
    while s[j]!='"':
        if s[j]=='\\':
            c=s[j+1]
            if c=='n': out+='\n'
            elif c=='t': out+='\t'
            elif c=='"': out+='"'
            elif c=='\\': out+='\\'
            else: out+='\\'+c
            j+=2
        else: out+=s[j]; j+=1
    return out, j+1
def field(c,name):
    m=re.search(r'^\t\t\t'+name+r':\s*',c,re.M)
    if not m: return None
    return m.end()
def gotype(e):
    e=e.strip()
    simple={'types.StringType':'string','types.IntType':'int','types.UintType':'uint','types.BoolType':'bool',
     'types.DoubleType':'double','types.BytesType':'bytes','types.NullType':'null_type','types.DynType':'dyn',
     'types.ErrorType':'error','types.DurationType':'google.protobuf.Duration','types.TimestampType':'google.protobuf.Timestamp',
     'types.TypeType':'type','types.AnyType':'google.protobuf.Any'}
    if e in simple: return simple[e]
    for fn,name in (('types.NewListType','list'),('types.NewMapType','map'),('types.NewTypeTypeWithParam','type'),('types.NewOptionalType','optional_type')):
        if e.startswith(fn+'(') and e.endswith(')'):
            inner=e[len(fn)+1:-1]
            # split top-level commas
            parts=[];d=0;cur=''
            for ch in inner:
                if ch=='(' : d+=1
                if ch==')': d-=1
                if ch==',' and d==0: parts.append(cur); cur=''; continue
                cur+=ch
            parts.append(cur)
            ps=[gotype(p) for p in parts]
            if any(p is None for p in ps): return None
            return name+'('+', '.join(ps)+')'
    m=re.match(r'types.NewObjectType\("([^"]+)"\)$',e)
    if m:
        n=m.group(1)
        wk={'google.protobuf.Int64Value':'wrapper(int)','google.protobuf.Struct':'map(string, dyn)','google.protobuf.Value':'dyn','google.protobuf.ListValue':'list(dyn)'}
        return wk.get(n)
    return None
out=[]
skipped={}
def parse_idents(block):
    vs=[]
    for m in re.finditer(r'decls\.NewVariable\("([^"]+)",\s*(.*?)\),?\s*$',block,re.M):
        t=gotype(m.group(2))
        if t is None: return None
        vs.append(m.group(1)+': '+t)
    if len(vs) != block.count('decls.NewVariable('): return None
    return vs
for idx,c in enumerate(cases):
    reason=None
    for bad in ('container:','disableStdEnv'):
        if re.search(r'^\t\t\t'+bad,c,re.M): reason=bad
    cross=True
    m=re.search(r'^\t\t\topts:\s*(.*)$',c,re.M)
    if m:
        if 'CrossTypeNumericComparisons(false)' in m.group(1): cross=False
        elif 'CrossTypeNumericComparisons(true)' not in m.group(1): reason='opts'
    vars_=[];default_env=False
    m=re.search(r'^\t\t\tenv:\s*(.*)$',c,re.M)
    if m and not reason:
        if 'testEnvs(t)["default"]' in m.group(1):
            default_env=True
        else:
            eb=c[m.start():]
            # env block until the closing '\t\t\t},' line
            e_end=eb.find('\n\t\t\t},')
            eb=eb[:e_end] if e_end>=0 else eb.split('\n')[0]
            if 'functions:' in eb: reason='env functions'
            elif 'variadicASTs' in eb: reason='variadic'
            elif 'jsonFieldNames' in eb: reason='json'
            else:
                vs=parse_idents(eb)
                if vs is None: reason='env ident type'
                else: vars_=vs
    i=field(c,'in')
    if i is None: reason=reason or 'noin'
    if reason: skipped[reason]=skipped.get(reason,0)+1; continue
    inp,_=gostr(c,i)
    if re.search(r'TestAllTypes|google\.expr|proto[23]\.|NestedMessage|NestedEnum|GlobalEnum',inp):
        skipped['proto']=skipped.get('proto',0)+1; continue
    ot=None;err=''
    j=field(c,'err')
    if j is not None: err,_=gostr(c,j)
    k=field(c,'outType')
    if k is not None:
        e=c[k:].split('\n')[0].rstrip(',')
        ot=gotype(e)
        if ot is None and not err: skipped['outType']=skipped.get('outType',0)+1; continue
    if not err and ot is None: skipped['noout']=skipped.get('noout',0)+1; continue
    errmsg=''
    if err:
        m=re.search(r'ERROR: <input>:\d+:\d+: ([^\n]*)',err)
        errmsg=m.group(0) if m else err.strip().split('\n')[0]
    out.append((idx,inp,ot or '',errmsg,vars_,default_env,cross))
print(skipped,file=sys.stderr)
print(len(out),file=sys.stderr)
def cstr(s):
    return '"'+s.replace('\\','\\\\').replace('"','\\"').replace('\n','\\n').replace('\t','\\t')+'"'
w=sys.stdout.write
w('// cel-go v0.29.2 checker/checker_test.go, TestCheck\'s testCases table, ported as\n')
w('// facts: the cases whose environment is expressible here (variables of CEL\n')
w('// types, the "default" test environment) and that use neither a container,\n')
w('// custom functions nor the proto test messages. Names are\n')
w('// "TestCheck/<index in testCases>". A case checks to out_type (Type::DebugString)\n')
w('// or fails with an issue containing err. Checked in the standard environment\n')
w('// (StandardCheckerEnv in checker_test.cc), as upstream\'s test.\n')
w('constexpr CheckerCase kCheckerCases[] = {\n')
for idx,inp,ot,err,vars_,default_env,cross in out:
    w('    {.name = "TestCheck/%d",\n     .in = %s,\n' % (idx,cstr(inp)))
    if vars_: w('     .vars = %s,\n' % cstr('; '.join(vars_)))
    if default_env: w('     .default_env = true,\n')
    if not cross: w('     .cross_type_numeric_comparisons = false,\n')
    if err: w('     .err = %s},\n' % cstr(err))
    else: w('     .out_type = %s},\n' % cstr(ot))
w('};\n')
