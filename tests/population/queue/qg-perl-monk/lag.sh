#!/bin/bash
exec perl -e '
    my ($q, $max) = @ARGV;
    my %n;
    for my $d (qw(inbox processing error)) {
        opendir(my $dh, "$q/$d") or die "$q/$d: $!\n";
        $n{$d} = grep { -f "$q/$d/$_" && ! -l "$q/$d/$_" } readdir $dh;
        closedir $dh;
    }
    print "inbox=$n{inbox} processing=$n{processing} error=$n{error}\n";
    exit($n{inbox} > $max ? 1 : 0);
' -- "$@"
