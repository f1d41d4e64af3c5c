import csv,sys,re,collections
def load(path):
    r=list(csv.reader(open(path)))
    hdr=r[1]; rows=[]
    for x in r[2:]:
        if len(x)<len(hdr)-2: continue
        d=dict(zip(hdr,x)); rows.append(d)
    return hdr,rows
def num(s):
    try: return float(s.replace(',',''))
    except: return 0.0
path=sys.argv[1]
hdr,rows=load(path)
stalls=[h for h in hdr if h.startswith('stall_') and '(Not Issued)' not in h]
# hot region: instructions executed >= threshold
ex=[num(d['Instructions Executed']) for d in rows]
mx=max(ex)
hot=[d for d in rows if num(d['Instructions Executed'])>=mx*0.5]
tot_samples=sum(num(d['Warp Stall Sampling (All Samples)']) for d in rows)
hot_samples=sum(num(d['Warp Stall Sampling (All Samples)']) for d in hot)
print(path, 'instrs',len(rows),'hot instrs',len(hot),'max exec %.0f'%mx, 'samples total %.0f hot %.0f (%.1f%%)'%(tot_samples,hot_samples,100*hot_samples/tot_samples))
print('executed per hot-loop pass (sum exec / max exec): %.1f'%(sum(num(d['Instructions Executed']) for d in hot)/mx))
st=collections.Counter()
for d in rows:
    for s in stalls: st[s]+=num(d[s])
print('stall reasons (all instrs, % of samples):', ', '.join('%s %.1f'%(k[6:],100*v/tot_samples) for k,v in st.most_common(9)))
# per-opcode samples in hot loop
op=collections.Counter(); opn=collections.Counter()
for d in hot:
    o=re.sub(r'^@!?U?P\w+\s+','',d['Source'].strip()).split()[0]
    op[o]+=num(d['Warp Stall Sampling (All Samples)']); opn[o]+=1
print('hot-loop samples by opcode:', ', '.join('%s %.1f%%(%d)'%(k,100*v/tot_samples,opn[k]) for k,v in op.most_common(14)))
# top single instructions
top=sorted(rows,key=lambda d:-num(d['Warp Stall Sampling (All Samples)']))[:int(sys.argv[2]) if len(sys.argv)>2 else 12]
for d in top:
    s=num(d['Warp Stall Sampling (All Samples)'])
    reasons=sorted(((num(d[k]),k[6:]) for k in stalls),reverse=True)[:3]
    print('  %s %-60s %5.2f%%  %s'%(d['Address'],d['Source'].strip()[:60],100*s/tot_samples,' '.join('%s:%.0f%%'%(k,100*v/max(s,1)) for v,k in reasons)))
