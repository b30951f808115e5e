"""API of typed-in results: correction (PUT), deletion (DELETE), the change log, players'
reports."""

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from core.permissions import may_manage_table
from games.api.inputs import InputSerializer
from games.api.match_serializers import ErrorSerializer
from tournaments import selectors
from tournaments.api.serializers import ResultIn
from tournaments.errors import AlreadyRecorded
from tournaments.models import Table
from tournaments.services import results

TABLE = r"tables/(?P<table_id>[0-9]{1,18})"


class ResultBody(ResultIn):
    ranks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=5), required=False,
        allow_null=True, max_length=5,
        help_text="Optional: the places per seat; refused unless they follow from the scores.",
    )  # fmt: skip


class ResultChangeOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="entered, corrected, forfeit, reported or cleared")
    by = serializers.CharField(allow_null=True, help_text="The user who made the change.")
    confirmed_by = serializers.CharField(allow_null=True, help_text="Reported results only.")
    at = serializers.DateTimeField()
    before = serializers.DictField(allow_null=True, help_text="ranks, scores, tiebreak, forfeited")
    after = serializers.DictField()


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    status = serializers.CharField()
    scores = serializers.ListField(child=serializers.IntegerField())
    tiebreak = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    ranks = serializers.ListField(child=serializers.IntegerField())
    confirmed_entries = serializers.ListField(child=serializers.IntegerField())


class ConfirmIn(InputSerializer):
    report = serializers.IntegerField(
        required=False, min_value=1, help_text="Default: the table's waiting report."
    )
    reject = serializers.BooleanField(default=False, help_text="Turn the report down instead.")


def _body(request) -> dict:
    payload = ResultBody(data=request.data)
    payload.is_valid(raise_exception=True)
    d = payload.validated_data
    return {"scores": d["scores"], "tiebreak": d.get("tiebreak"), "ranks": d.get("ranks")}


class ResultActionsMixin:
    """Added to the tournament viewset: the actions on one table's result."""

    def _table(self, table_id) -> Table:
        return get_object_or_404(
            Table.objects.select_related("round__tournament"),
            pk=table_id, round__tournament=self.get_object(),
        )  # fmt: skip

    def put_result(self, request, table_id):
        """PUT: enter or correct the result (organisers); answers the result now stored."""
        table = self._table(table_id)
        if not may_manage_table(request.user, table):
            raise PermissionDenied(gettext("Only the organiser can do that."))
        table, _changed = results.set_result(table=table, by=request.user, **_body(request))
        return Response({"table": table.pk, "result": table.result})

    def delete_result(self, request, table_id):
        """DELETE: the result goes, the table plays again (organisers; 400 with the reason
        once a later round is paired)."""
        table = self._table(table_id)
        if not may_manage_table(request.user, table):
            raise PermissionDenied(gettext("Only the organiser can do that."))
        results.clear_result(table=table, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def post_result(self, request, table_id):
        """POST: the first result of a table (409 if it has one; correct it with PUT)."""
        table = self._table(table_id)
        if not may_manage_table(request.user, table):
            raise PermissionDenied(gettext("Only the organiser can do that."))
        if not results.enter_result(table=table, by=request.user, **_body(request)):
            raise AlreadyRecorded()
        table.refresh_from_db()
        return Response({"table": table.pk, "result": table.result}, status=status.HTTP_201_CREATED)

    @extend_schema(responses=ResultChangeOut(many=True))
    @action(detail=True, pagination_class=None, url_path=rf"{TABLE}/result/history")
    def result_history(self, request, pk=None, table_id=None):
        """Every change of the table's result, oldest first: who, when, before, after."""
        table = self._table(table_id)
        return Response(ResultChangeOut(selectors.history(table), many=True).data)

    @extend_schema(request=ResultBody, responses={201: ReportOut, 403: ErrorSerializer})
    @action(detail=True, methods=["post"], url_path=rf"{TABLE}/report",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def report(self, request, pk=None, table_id=None):
        """A seated player reports his table's result (same body as the result); it counts
        once the organiser or every other seated player confirms (status "confirmed")."""
        table = self._table(table_id)
        report = results.report_result(table=table, by=request.user, **_body(request))
        report.refresh_from_db()
        return Response(ReportOut(report).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ConfirmIn, responses={200: ReportOut, 403: ErrorSerializer})
    @action(detail=True, methods=["post"], url_path=rf"{TABLE}/report/confirm",
            permission_classes=[permissions.IsAuthenticated])  # fmt: skip
    def report_confirm(self, request, pk=None, table_id=None):
        """The organiser, or another seated player, confirms (or with reject: true, turns
        down) the table's waiting report."""
        table = self._table(table_id)
        payload = ConfirmIn(data=request.data)
        payload.is_valid(raise_exception=True)
        report = selectors.report_to_answer(table, payload.validated_data.get("report"))
        act = results.reject_report if payload.validated_data["reject"] else results.confirm_report
        report = act(report=report, by=request.user)
        return Response(ReportOut(report).data)
