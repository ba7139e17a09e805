#!/bin/bash
exec perl -e '
    my $name = shift // "";
    my $q = "/root/q";
    -f "$q/error/$name" or die "replay: no such file in error/: \"$name\"\n";
    rename("$q/error/$name", "$q/inbox/" . (split m{/}, $name)[-1])
        or die "replay: rename failed: $!\n";
    print "replayed $name\n";
' -- "$@"
