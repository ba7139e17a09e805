select order_no,seq,d from(select order_no,seq,seq-lag(seq)over(partition by order_no order by seq)d from processed)where d<>1;
