import csv,sys,re,collections
def num(s):
    try: return float(s.replace(',',''))
    except: return 0.0
def get(path,warps):
    r=list(csv.reader(open(path))); hdr=r[1]
    rows=[dict(zip(hdr,x)) for x in r[2:] if len(x)>=len(hdr)-2]
    ex=[num(d['Instructions Executed']) for d in rows]
    mx=max(ex); hot=[i for i,e in enumerate(ex) if e>=mx*0.5]; lo,hi=min(hot),max(hot)
    op=collections.Counter(); samp=collections.Counter()
    ts=sum(num(d['Warp Stall Sampling (All Samples)']) for d in rows)
    for i in range(lo,hi+1):
        d=rows[i]; o=re.sub(r'^@!?U?P\w+\s+','',d['Source'].strip()).split()[0]
        op[o]+=ex[i]/warps/64; samp[o]+=num(d['Warp Stall Sampling (All Samples)'])/ts*100
    return op,samp
a,sa=get(sys.argv[1],24576); b,sb=get(sys.argv[2],24576)
keys=sorted(set(a)|set(b),key=lambda k:-(a[k]-b[k]))
print('%-32s %8s %8s %8s   %6s %6s'%('opcode / warp-iteration','relpos','sdpa','diff','rp%smp','sd%smp'))
for k in keys:
    if abs(a[k]-b[k])>0.4 or a[k]>8:
        print('%-32s %8.1f %8.1f %8.1f   %6.1f %6.1f'%(k,a[k],b[k],a[k]-b[k],sa[k],sb[k]))
print('%-32s %8.1f %8.1f %8.1f'%('TOTAL',sum(a.values()),sum(b.values()),sum(a.values())-sum(b.values())))
