select order_no,seq,count(*) n,(select min(b.seq) from processed b where b.order_no=a.order_no and b.seq>a.seq) nxt from processed a group by order_no,seq having n>1 or nxt>seq+1;
