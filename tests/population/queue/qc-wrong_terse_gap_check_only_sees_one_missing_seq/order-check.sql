select order_no,seq,p from(select order_no,seq,lag(seq)over(partition by order_no order by seq)p from processed)where seq=p or seq=p+2;
