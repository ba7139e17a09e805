select * from (select order_no,seq,lead(seq) over w nxt from processed window w as (partition by order_no order by seq)) where nxt-seq<>1;
