SELECT order_no,seq,nx FROM(SELECT order_no,seq,LEAD(seq)OVER(PARTITION BY order_no ORDER BY seq)nx FROM processed)WHERE nx=seq OR nx>seq+1;
