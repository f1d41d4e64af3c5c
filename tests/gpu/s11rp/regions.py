import csv,sys,re,collections
def num(s):
    try: return float(s.replace(',',''))
    except: return 0.0
r=list(csv.reader(open(sys.argv[1]))); hdr=r[1]
rows=[dict(zip(hdr,x)) for x in r[2:] if len(x)>=len(hdr)-2]
ex=[num(d['Instructions Executed']) for d in rows]
mx=max(ex); warps=float(sys.argv[2])
hot=[i for i,e in enumerate(ex) if e>=mx*0.5]
lo,hi=min(hot),max(hot)
tot=sum(ex)
pre=sum(ex[:lo]); loop=sum(ex[lo:hi+1]); post=sum(ex[hi+1:])
print('%s: total %.1fM; per warp: total %.0f, before loop %.0f, loop %.0f, after %.0f'%(sys.argv[1],tot/1e6,tot/warps,pre/warps,loop/warps,post/warps))
samp=[num(d['Warp Stall Sampling (All Samples)']) for d in rows]; ts=sum(samp)
print('   samples: before %.1f%% loop %.1f%% after %.1f%%'%(100*sum(samp[:lo])/ts,100*sum(samp[lo:hi+1])/ts,100*sum(samp[hi+1:])/ts))
# opcode breakdown of before+after executed
op=collections.Counter()
for i,d in enumerate(rows):
    if lo<=i<=hi: continue
    o=re.sub(r'^@!?U?P\w+\s+','',d['Source'].strip()).split()[0]
    op[o]+=ex[i]/warps
print('   outside loop per warp by opcode:',', '.join('%s %.0f'%(k,v) for k,v in op.most_common(16)))
